-- The hours in which tools were dropped harmfully (lib/db/queries/rollouts.ts, tools.ts): the
-- rollouts verdict lists the tools with the most harmful drops in a window and the last hour of
-- each, where the example decisions are looked up. Only the rows with a harmful drop are indexed
-- (at 1M decisions 4 % of `tool_rollup_hour`, more as each hour holds more decisions), so ingest
-- touches this index only when an outcome turns out harmful, and the hours at the edges of a
-- window, or one day's hours, are read without the rows of the tools nobody was harmed by.
CREATE INDEX "tool_rollup_hour_bucket_tool_tenant_id_role_mode_idx" ON "tool_rollup_hour"("bucket", "tool", "tenant_id", "role", "mode") WHERE "harmful_drops" > 0;

-- The decisions with a harmful drop (about 2 % of them), by time: the examples of a harmfully
-- dropped tool are looked up inside one hour, and a tool is harmful in about one decision of a
-- thousand, so reading only these skips the other decisions of the hour. Ingest adds an entry
-- only when a join (or an OpenTelemetry span) finds a harmful drop.
CREATE INDEX "decisions_harmful_ts_idx" ON "decisions"("ts") WHERE "harmful_tools" <> '{}'::text[];
