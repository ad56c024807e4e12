-- The runs summary sums per-decision counts over a whole run: one decision can add up to
-- 64,000 reinstatements (64 stages of 1,000 names), so an `int` sum overflowed after about
-- 33,000 such decisions in one run. Every summed column is now `bigint`, like the rollups.
ALTER TABLE "runs"
  ALTER COLUMN "decisions" SET DATA TYPE BIGINT,
  ALTER COLUMN "reinstatements" SET DATA TYPE BIGINT,
  ALTER COLUMN "empty_palette_warnings" SET DATA TYPE BIGINT,
  ALTER COLUMN "stage_errors" SET DATA TYPE BIGINT,
  ALTER COLUMN "harmful_drops" SET DATA TYPE BIGINT;
