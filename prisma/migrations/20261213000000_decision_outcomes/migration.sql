-- A decision's outcome moves out of the decision row into `decision_outcomes`, one narrow row
-- per joined decision (docs/PERFORMANCE.md, "2026-12-06, later: the join writes a narrow row").
-- A decision row is then written once: joining an outcome that arrives after its decision adds
-- about 100 bytes instead of rewriting the decision's kilobyte (a new version of the row on
-- another page, with an entry in each of its indexes).
--
-- The row is keyed by its decision's (tenant_id, id, ts) and partitioned by the decision's
-- `ts` in the same weeks as `decisions`, so retention drops a week of both together.

CREATE TABLE "decision_outcomes" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "decision_id" BIGINT NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    -- Nullable, as Prisma declares a list; ingest always writes both.
    "called" TEXT[],
    "harmful_tools" TEXT[]
) PARTITION BY RANGE ("ts");
CREATE TABLE "decision_outcomes_default" PARTITION OF "decision_outcomes" DEFAULT;

-- One partition for each week `decisions` has one for.
SELECT routelens_create_week_partition('decision_outcomes', lower_bound)
  FROM (SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid),
                  '^FOR VALUES FROM \(''([^'']+)''\)'))[1]::timestamptz AS lower_bound
          FROM pg_inherits i
          JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'decisions'::regclass) AS weeks
 WHERE lower_bound IS NOT NULL;

INSERT INTO "decision_outcomes" (tenant_id, decision_id, ts, called, harmful_tools)
SELECT tenant_id, id, ts, called, harmful_tools FROM "decisions" WHERE has_outcome;

ALTER TABLE "decision_outcomes"
    ADD CONSTRAINT "decision_outcomes_pkey" PRIMARY KEY ("tenant_id", "decision_id", "ts");
-- The decisions with a harmful drop (about 2 % of them), by their time: the rollouts page's
-- examples of a harmfully dropped tool (was "decisions_harmful_ts_idx").
CREATE INDEX "decision_outcomes_harmful_ts_idx" ON "decision_outcomes"("ts")
    WHERE "harmful_tools" <> '{}'::text[];

DROP INDEX IF EXISTS "decisions_harmful_ts_idx";
ALTER TABLE "decisions" DROP COLUMN "has_outcome", DROP COLUMN "called", DROP COLUMN "harmful_tools";

-- The server creates the weeks of all three raw tables ahead of time.
CREATE OR REPLACE FUNCTION routelens_create_week_partitions(first timestamptz, last timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    week timestamptz;
    parent text;
    created integer := 0;
BEGIN
    FOR week IN SELECT generate_series(
            date_trunc('week', first AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
            last, interval '7 days') LOOP
        FOREACH parent IN ARRAY ARRAY['decisions', 'outcomes', 'decision_outcomes'] LOOP
            IF routelens_create_week_partition(parent, week) THEN created := created + 1; END IF;
        END LOOP;
    END LOOP;
    RETURN created;
END
$$;
