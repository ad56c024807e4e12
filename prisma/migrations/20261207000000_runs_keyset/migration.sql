-- The runs list pages by key (lib/db/queries/runs.ts): a page starts after, or ends before, the
-- key of a row in the chosen order, and every order is (sort column, tenant_id, run_id) in one
-- direction, or (tenant_id, run_id) / (run_id, tenant_id) when sorting by tenant or run id.
-- One index per order, scanned forwards or backwards, so any page of any order reads only its
-- own rows, whatever the number of runs.

DROP INDEX "runs_last_seen_tenant_id_run_id_idx";
CREATE INDEX "runs_last_seen_tenant_id_run_id_idx" ON "runs"("last_seen", "tenant_id", "run_id");
CREATE INDEX "runs_first_seen_tenant_id_run_id_idx" ON "runs"("first_seen", "tenant_id", "run_id");
CREATE INDEX "runs_decisions_tenant_id_run_id_idx" ON "runs"("decisions", "tenant_id", "run_id");
CREATE INDEX "runs_max_iteration_tenant_id_run_id_idx" ON "runs"("max_iteration", "tenant_id", "run_id");
CREATE INDEX "runs_dropped_tokens_tenant_id_run_id_idx" ON "runs"("dropped_tokens", "tenant_id", "run_id");
CREATE INDEX "runs_reinstatements_tenant_id_run_id_idx" ON "runs"("reinstatements", "tenant_id", "run_id");
CREATE INDEX "runs_empty_palette_warnings_tenant_id_run_id_idx" ON "runs"("empty_palette_warnings", "tenant_id", "run_id");
CREATE INDEX "runs_stage_errors_tenant_id_run_id_idx" ON "runs"("stage_errors", "tenant_id", "run_id");
CREATE INDEX "runs_harmful_drops_tenant_id_run_id_idx" ON "runs"("harmful_drops", "tenant_id", "run_id");

-- Sorting by run id, and a run id looked up across the viewer's tenants.
DROP INDEX "runs_run_id_idx";
CREATE INDEX "runs_run_id_tenant_id_idx" ON "runs"("run_id", "tenant_id");

-- The run id prefix filter (`run_id LIKE 'prefix%'`): only an index compared character by
-- character serves LIKE under a collation other than C.
CREATE INDEX "runs_run_id_prefix_idx" ON "runs"("run_id" text_pattern_ops);
