-- Per-tool totals per UTC day, kept at ingest next to tool_rollup_hour with the same measures,
-- so reads over days (the tools page and its context tax over 7 or 30 days) sum a day's row
-- instead of its 24 hourly ones. Filled here from tool_rollup_hour, which holds the same sums
-- by hour; the lock keeps ingest from adding to the hours while they are summed.

CREATE TABLE "tool_rollup_day" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "role" VARCHAR(200) NOT NULL,
    "mode" VARCHAR(16) NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "tool" VARCHAR(200) NOT NULL,
    "offered" BIGINT NOT NULL,
    "selected" BIGINT NOT NULL,
    "dropped" BIGINT NOT NULL,
    "called" BIGINT NOT NULL,
    "harmful_drops" BIGINT NOT NULL,
    "dropped_tokens" DOUBLE PRECISION NOT NULL,
    "unused_offers" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "tool_rollup_day_pkey" PRIMARY KEY ("tenant_id", "role", "mode", "bucket", "tool")
);
CREATE INDEX "tool_rollup_day_bucket_idx" ON "tool_rollup_day"("bucket");

LOCK TABLE "tool_rollup_hour" IN SHARE MODE;

INSERT INTO "tool_rollup_day" ("tenant_id", "role", "mode", "bucket", "tool", "offered",
    "selected", "dropped", "called", "harmful_drops", "dropped_tokens", "unused_offers")
SELECT "tenant_id", "role", "mode",
       date_bin('1 day', "bucket", TIMESTAMPTZ '2000-01-01 00:00:00+00'), "tool",
       sum("offered"), sum("selected"), sum("dropped"), sum("called"), sum("harmful_drops"),
       sum("dropped_tokens"), sum("unused_offers")
  FROM "tool_rollup_hour"
 GROUP BY 1, 2, 3, 4, 5;
