-- Backtests (SPEC §10): a candidate routing config replayed over a tenant's recorded decisions
-- by a background job. The row holds the input (configs as snapshots), the state, progress,
-- the job's checkpoint (keyset position + partial sums in `result`) and the result.

CREATE TABLE "backtests" (
    "id" UUID NOT NULL,
    "tenant_id" VARCHAR(100) NOT NULL,
    "roles" TEXT[],
    "window_from" TIMESTAMPTZ(3) NOT NULL,
    "window_to" TIMESTAMPTZ(3) NOT NULL,
    "candidate" JSONB NOT NULL,
    "candidate_version" VARCHAR(200) NOT NULL,
    "baseline" JSONB,
    "baseline_version" VARCHAR(200),
    "threshold_percent" DOUBLE PRECISION NOT NULL,
    "state" VARCHAR(12) NOT NULL DEFAULT 'queued',
    "replayed" BIGINT NOT NULL DEFAULT 0,
    "estimated_total" BIGINT NOT NULL DEFAULT 0,
    "cursor_ts" TIMESTAMPTZ(3),
    "cursor_id" BIGINT,
    "result" JSONB,
    "error" VARCHAR(2000),
    "created_by" VARCHAR(64),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "backtests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "backtests_state_check" CHECK ("state" IN ('queued', 'running', 'cancelling', 'cancelled', 'failed', 'done')),
    CONSTRAINT "backtests_window_check" CHECK ("window_to" > "window_from" AND "window_to" <= "window_from" + INTERVAL '30 days'),
    CONSTRAINT "backtests_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "backtests_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "backtests_tenant_id_created_at_idx" ON "backtests"("tenant_id", "created_at" DESC);
CREATE INDEX "backtests_state_idx" ON "backtests"("state");
