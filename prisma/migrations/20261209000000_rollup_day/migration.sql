-- The decision rollup per UTC day, kept at ingest next to rollup_hour with the same measures, so
-- the overview and rollouts over days (7 or 30 of them) sum one row per day instead of 24.
-- Filled here from rollup_hour, which holds the same sums by hour; the lock keeps ingest from
-- adding to the hours while they are summed.

CREATE TABLE "rollup_day" (LIKE "rollup_hour" INCLUDING DEFAULTS);
ALTER TABLE "rollup_day" ADD CONSTRAINT "rollup_day_pkey" PRIMARY KEY ("tenant_id", "role", "mode", "config_version", "bucket");
CREATE INDEX "rollup_day_bucket_idx" ON "rollup_day"("bucket");

LOCK TABLE "rollup_hour" IN SHARE MODE;

INSERT INTO "rollup_day" ("tenant_id", "role", "mode", "config_version", "bucket", "decisions",
    "dropped_tokens", "dropped_tokens_sq", "offered_tools", "offered_tools_sq", "selected_tools",
    "selected_tools_sq", "reinstatements", "empty_palette_warnings", "stage_errors",
    "decisions_reinstated", "decisions_empty_palette", "decisions_stage_error", "outcomes",
    "harmful_decisions", "harmful_drops", "zero_call_outcomes")
SELECT "tenant_id", "role", "mode", "config_version",
       date_bin('1 day', "bucket", TIMESTAMPTZ '2000-01-01 00:00:00+00'),
       sum("decisions"), sum("dropped_tokens"), sum("dropped_tokens_sq"), sum("offered_tools"),
       sum("offered_tools_sq"), sum("selected_tools"), sum("selected_tools_sq"),
       sum("reinstatements"), sum("empty_palette_warnings"), sum("stage_errors"),
       sum("decisions_reinstated"), sum("decisions_empty_palette"), sum("decisions_stage_error"),
       sum("outcomes"), sum("harmful_decisions"), sum("harmful_drops"), sum("zero_call_outcomes")
  FROM "rollup_hour"
 GROUP BY 1, 2, 3, 4, 5;
