-- Time partitions for the raw tables (docs/PARTITIONS.md): `decisions` and `outcomes` become
-- partitioned by range of the event's own timestamp (`ts`), one partition per ISO week (Monday
-- 00:00 UTC to the next), plus a DEFAULT partition for events of weeks that have none. Retention
-- then drops whole weeks.
--
-- A unique index of a partitioned table must contain the partition key, so (tenant_id,
-- event_id) can no longer be unique on the raw tables themselves. `event_ids` keeps it: one row
-- per stored decision or outcome, primary key (tenant_id, event_id), written in the same
-- transaction as the row, so an event id is stored once per tenant whatever its timestamp and
-- however many transactions race with it.

-- Creates the week partition of `parent` that holds `at`, unless it exists: rows of that week
-- already in the parent's DEFAULT partition move into it. Safe with several callers at once:
-- the parent is locked in SHARE UPDATE EXCLUSIVE mode (which ATTACH PARTITION takes anyway;
-- it conflicts with itself, not with reads and writes of rows), then looked at again. Returns
-- true when it created the partition.
CREATE FUNCTION routelens_create_week_partition(parent text, at timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    week_start timestamptz := date_trunc('week', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    week_end timestamptz := week_start + interval '7 days';
    name text := parent || '_p' || to_char(week_start AT TIME ZONE 'UTC', 'YYYYMMDD');
    default_name text := parent || '_default';
BEGIN
    IF to_regclass(quote_ident(name)) IS NOT NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('LOCK TABLE %I IN SHARE UPDATE EXCLUSIVE MODE', parent);
    IF to_regclass(quote_ident(name)) IS NOT NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', name, parent);
    IF to_regclass(quote_ident(default_name)) IS NOT NULL THEN
        -- No event of the week may land in the default partition while it moves.
        EXECUTE format('LOCK TABLE %I IN EXCLUSIVE MODE', default_name);
        EXECUTE format(
            'WITH moved AS (DELETE FROM %I WHERE ts >= $1 AND ts < $2 RETURNING *)
             INSERT INTO %I SELECT * FROM moved', default_name, name)
        USING week_start, week_end;
    END IF;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                   parent, name, week_start, week_end);
    RETURN true;
END
$$;

-- The week partitions of both raw tables from `first` to `last` (weeks holding either end
-- included); returns how many were created.
CREATE FUNCTION routelens_create_week_partitions(first timestamptz, last timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    week timestamptz;
    created integer := 0;
BEGIN
    FOR week IN SELECT generate_series(
            date_trunc('week', first AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
            last, interval '7 days') LOOP
        IF routelens_create_week_partition('decisions', week) THEN created := created + 1; END IF;
        IF routelens_create_week_partition('outcomes', week) THEN created := created + 1; END IF;
    END LOOP;
    RETURN created;
END
$$;

-- The stored tables step aside; their sequences outlive them.
ALTER SEQUENCE "decisions_id_seq" OWNED BY NONE;
ALTER SEQUENCE "outcomes_id_seq" OWNED BY NONE;
ALTER TABLE "decisions" RENAME TO "decisions_stored";
ALTER TABLE "outcomes" RENAME TO "outcomes_stored";
ALTER TABLE "decisions_stored" RENAME CONSTRAINT "decisions_pkey" TO "decisions_stored_pkey";
ALTER TABLE "outcomes_stored" RENAME CONSTRAINT "outcomes_pkey" TO "outcomes_stored_pkey";
ALTER INDEX "decisions_tenant_id_event_id_key" RENAME TO "decisions_stored_event_key";
ALTER INDEX "decisions_tenant_id_run_id_iteration_idx" RENAME TO "decisions_stored_run_idx";
ALTER INDEX "decisions_ts_idx" RENAME TO "decisions_stored_ts_idx";
ALTER INDEX "outcomes_tenant_id_event_id_key" RENAME TO "outcomes_stored_event_key";
ALTER INDEX "outcomes_tenant_id_run_id_iteration_idx" RENAME TO "outcomes_stored_run_idx";
ALTER INDEX "outcomes_waiting_idx" RENAME TO "outcomes_stored_waiting_idx";
ALTER INDEX "outcomes_ts_idx" RENAME TO "outcomes_stored_ts_idx";

CREATE TABLE "decisions" (LIKE "decisions_stored" INCLUDING DEFAULTS) PARTITION BY RANGE ("ts");
CREATE TABLE "outcomes" (LIKE "outcomes_stored" INCLUDING DEFAULTS) PARTITION BY RANGE ("ts");
CREATE TABLE "decisions_default" PARTITION OF "decisions" DEFAULT;
CREATE TABLE "outcomes_default" PARTITION OF "outcomes" DEFAULT;
ALTER SEQUENCE "decisions_id_seq" OWNED BY "decisions"."id";
ALTER SEQUENCE "outcomes_id_seq" OWNED BY "outcomes"."id";

-- Weeks: every week of the stored rows' range, from at most 53 weeks back (older rows go to
-- the default partition, which retention empties first), to two weeks ahead.
SELECT routelens_create_week_partitions(
    GREATEST(
        now() - interval '53 weeks',
        LEAST(
            now() - interval '4 weeks',
            (SELECT min(ts) FROM "decisions_stored"),
            (SELECT min(ts) FROM "outcomes_stored"))),
    now() + interval '2 weeks');

INSERT INTO "decisions" SELECT * FROM "decisions_stored";
INSERT INTO "outcomes" SELECT * FROM "outcomes_stored";

-- Keys and indexes, built once over the moved rows. Every key contains tenant_id and ts.
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_pkey" PRIMARY KEY ("tenant_id", "id", "ts");
CREATE INDEX "decisions_tenant_id_run_id_iteration_idx" ON "decisions"("tenant_id", "run_id", "iteration");
CREATE INDEX "decisions_ts_idx" ON "decisions"("ts");
ALTER TABLE "outcomes" ADD CONSTRAINT "outcomes_pkey" PRIMARY KEY ("tenant_id", "id", "ts");
CREATE INDEX "outcomes_tenant_id_run_id_iteration_idx" ON "outcomes"("tenant_id", "run_id", "iteration");
CREATE INDEX "outcomes_waiting_idx" ON "outcomes"("tenant_id", "run_id", "iteration") WHERE NOT "joined";
CREATE INDEX "outcomes_ts_idx" ON "outcomes"("ts");

-- One row per stored event id, decisions and outcomes together.
CREATE TABLE "event_ids" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "event_id" VARCHAR(128) NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "event_ids_pkey" PRIMARY KEY ("tenant_id", "event_id")
);
INSERT INTO "event_ids" (tenant_id, event_id, ts)
SELECT tenant_id, event_id, ts FROM "decisions_stored"
UNION ALL
SELECT tenant_id, event_id, ts FROM "outcomes_stored"
ON CONFLICT DO NOTHING;
CREATE INDEX "event_ids_ts_idx" ON "event_ids"("ts");

DROP TABLE "decisions_stored";
DROP TABLE "outcomes_stored";
