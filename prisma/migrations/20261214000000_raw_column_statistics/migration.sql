-- No statistics for the raw tables' list and document columns, which no query filters, joins,
-- groups or sorts by: only ever read back with their row (docs/PERFORMANCE.md, "2026-12-06,
-- late: what autovacuum's ANALYZE costs"). ANALYZE computes most-common-element lists and element
-- histograms for every array column of its 30,000-row sample, and detoasts every document; on a
-- week partition of decisions that was more than half of each pass (545 ms, of which `selected`
-- alone 200), and autovacuum runs a pass each time a partition grows by a tenth. The other
-- columns keep their statistics: the planner estimates the raw tables' look-ups from them.
--
-- On a partitioned table the target is set on the parent and every partition; partitions
-- created later copy it from their parent (routelens_create_week_partition, below).

ALTER TABLE "decisions"
    ALTER COLUMN "selected" SET STATISTICS 0,
    ALTER COLUMN "offered" SET STATISTICS 0,
    ALTER COLUMN "trace" SET STATISTICS 0,
    ALTER COLUMN "warnings" SET STATISTICS 0,
    ALTER COLUMN "intent" SET STATISTICS 0;
ALTER TABLE "outcomes" ALTER COLUMN "called" SET STATISTICS 0;
ALTER TABLE "otel_spans" ALTER COLUMN "call_ids" SET STATISTICS 0;

-- As before, and the new partition's columns take their parent's statistics targets (CREATE
-- TABLE … LIKE does not copy them; ATTACH PARTITION does not either).
CREATE OR REPLACE FUNCTION routelens_create_week_partition(parent text, at timestamptz)
RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    week_start timestamptz := date_trunc('week', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    week_end timestamptz := week_start + interval '7 days';
    name text := parent || '_p' || to_char(week_start AT TIME ZONE 'UTC', 'YYYYMMDD');
    default_name text := parent || '_default';
    target record;
BEGIN
    IF to_regclass(quote_ident(name)) IS NOT NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('LOCK TABLE %I IN SHARE UPDATE EXCLUSIVE MODE', parent);
    IF to_regclass(quote_ident(name)) IS NOT NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', name, parent);
    -- A column at its default target has none (NULL from PostgreSQL 17, -1 before).
    FOR target IN
        SELECT attname, attstattarget FROM pg_attribute
         WHERE attrelid = to_regclass(quote_ident(parent)) AND attnum > 0 AND NOT attisdropped
           AND attstattarget >= 0
    LOOP
        EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET STATISTICS %s',
                       name, target.attname, target.attstattarget);
    END LOOP;
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
