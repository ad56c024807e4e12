-- The hours in which a tool was dropped harmfully (lib/db/queries/rollouts.ts, tools.ts): the
-- rollouts verdict lists the tools with the most harmful drops in a window and the last hour of
-- each, where the example decisions are looked up. Only rows with a harmful drop are indexed —
-- a few percent of `tool_rollup_hour` — so ingest touches this index only when an outcome turns
-- out harmful, and the last such hour of a tool is one backward step of the index.
CREATE INDEX "tool_rollup_hour_tool_bucket_tenant_id_role_mode_idx" ON "tool_rollup_hour"("tool", "bucket", "tenant_id", "role", "mode") WHERE "harmful_drops" > 0;
