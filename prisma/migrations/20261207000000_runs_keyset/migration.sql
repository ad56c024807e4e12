-- The runs list pages by key (lib/db/queries/runs.ts): a page starts after, or ends before, the
-- key of a row in the chosen order, and every order is (sort column, tenant_id, run_id) in one
-- direction, or (tenant_id, run_id) / (run_id, tenant_id) when sorting by tenant or run id.
-- One index per order, scanned forwards or backwards, so any page of any order reads only its
-- own rows, whatever the number of runs. The highest iteration (`max_iteration`) is no longer an
-- order of the list: it is not one of its columns, and its index would cost every ingest.

DROP INDEX "runs_last_seen_tenant_id_run_id_idx";
CREATE INDEX "runs_last_seen_tenant_id_run_id_idx" ON "runs"("last_seen", "tenant_id", "run_id");
CREATE INDEX "runs_first_seen_tenant_id_run_id_idx" ON "runs"("first_seen", "tenant_id", "run_id");
CREATE INDEX "runs_decisions_tenant_id_run_id_idx" ON "runs"("decisions", "tenant_id", "run_id");
CREATE INDEX "runs_dropped_tokens_tenant_id_run_id_idx" ON "runs"("dropped_tokens", "tenant_id", "run_id");

-- Counters that stay zero for most runs: only the runs where they are not are indexed, so ingest
-- touches these indexes only for those runs; the runs at zero are read in (tenant_id, run_id)
-- order from the primary key.
CREATE INDEX "runs_reinstatements_tenant_id_run_id_idx" ON "runs"("reinstatements", "tenant_id", "run_id") WHERE "reinstatements" > 0;
CREATE INDEX "runs_empty_palette_warnings_tenant_id_run_id_idx" ON "runs"("empty_palette_warnings", "tenant_id", "run_id") WHERE "empty_palette_warnings" > 0;
CREATE INDEX "runs_stage_errors_tenant_id_run_id_idx" ON "runs"("stage_errors", "tenant_id", "run_id") WHERE "stage_errors" > 0;
CREATE INDEX "runs_harmful_drops_tenant_id_run_id_idx" ON "runs"("harmful_drops", "tenant_id", "run_id") WHERE "harmful_drops" > 0;

-- Run ids in byte order (the C collation, whatever the database's): sorting by run id, a run id
-- looked up across the viewer's tenants, and the run id prefix filter (`LIKE 'prefix%'` can use
-- an index only under C), all from one index.
DROP INDEX "runs_run_id_idx";
CREATE INDEX "runs_run_id_tenant_id_idx" ON "runs"("run_id" COLLATE "C", "tenant_id");
