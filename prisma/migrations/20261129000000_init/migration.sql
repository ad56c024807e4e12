-- Routelens initial storage: tenants and keys, raw decisions and outcomes, runs summary,
-- and the rollups every dashboard total reads.

CREATE TABLE "tenants" (
    "id" VARCHAR(100) NOT NULL,
    "is_demo" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "tenant_id" VARCHAR(100) NOT NULL,
    "prefix" VARCHAR(32) NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "label" VARCHAR(200),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_tenant_id_idx" ON "api_keys"("tenant_id");
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "decisions" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" VARCHAR(100) NOT NULL,
    "event_id" VARCHAR(128) NOT NULL,
    "run_id" VARCHAR(200) NOT NULL,
    "role" VARCHAR(200) NOT NULL,
    "mode" VARCHAR(16) NOT NULL,
    "iteration" INTEGER NOT NULL,
    "turn_hop_index" INTEGER NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "offered_count" INTEGER NOT NULL,
    "selected_count" INTEGER NOT NULL,
    "dropped_count" INTEGER NOT NULL,
    "dropped_tokens" BIGINT NOT NULL,
    "reinstatements" INTEGER NOT NULL,
    "empty_palette_warnings" INTEGER NOT NULL,
    "stage_errors" INTEGER NOT NULL,
    "forced_choice" VARCHAR(200),
    "palette_identity" TEXT,
    "config_version" VARCHAR(200) NOT NULL DEFAULT '',
    "model" VARCHAR(200),
    "agent" VARCHAR(200),
    "intent_label" VARCHAR(200),
    "offered" TEXT[],
    "selected" TEXT[],
    "dropped" TEXT[],
    "trace" JSONB NOT NULL,
    "warnings" JSONB NOT NULL,
    "intent" JSONB,
    "has_outcome" BOOLEAN NOT NULL DEFAULT false,
    "called" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "harmful_tools" TEXT[] DEFAULT ARRAY[]::TEXT[],
    CONSTRAINT "decisions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "decisions_tenant_id_event_id_key" ON "decisions"("tenant_id", "event_id");
CREATE INDEX "decisions_tenant_id_run_id_iteration_idx" ON "decisions"("tenant_id", "run_id", "iteration");
CREATE INDEX "decisions_ts_idx" ON "decisions"("ts");

CREATE TABLE "outcomes" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" VARCHAR(100) NOT NULL,
    "event_id" VARCHAR(128) NOT NULL,
    "run_id" VARCHAR(200) NOT NULL,
    "role" VARCHAR(200) NOT NULL,
    "iteration" INTEGER NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "called" TEXT[],
    "error" TEXT,
    "joined" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "outcomes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outcomes_tenant_id_event_id_key" ON "outcomes"("tenant_id", "event_id");
CREATE INDEX "outcomes_tenant_id_run_id_iteration_idx" ON "outcomes"("tenant_id", "run_id", "iteration");
CREATE INDEX "outcomes_ts_idx" ON "outcomes"("ts");

CREATE TABLE "runs" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "run_id" VARCHAR(200) NOT NULL,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,
    "decisions" INTEGER NOT NULL,
    "max_iteration" INTEGER NOT NULL,
    "roles" TEXT[],
    "modes" TEXT[],
    "dropped_tokens" BIGINT NOT NULL,
    "reinstatements" INTEGER NOT NULL,
    "empty_palette_warnings" INTEGER NOT NULL,
    "stage_errors" INTEGER NOT NULL,
    "harmful_drops" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "runs_pkey" PRIMARY KEY ("tenant_id", "run_id")
);
CREATE INDEX "runs_last_seen_tenant_id_run_id_idx" ON "runs"("last_seen" DESC, "tenant_id", "run_id");
CREATE INDEX "runs_run_id_idx" ON "runs"("run_id");

CREATE TABLE "rollup_minute" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "role" VARCHAR(200) NOT NULL,
    "mode" VARCHAR(16) NOT NULL,
    "config_version" VARCHAR(200) NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "decisions" BIGINT NOT NULL,
    "dropped_tokens" BIGINT NOT NULL,
    "dropped_tokens_sq" DOUBLE PRECISION NOT NULL,
    "offered_tools" BIGINT NOT NULL,
    "offered_tools_sq" DOUBLE PRECISION NOT NULL,
    "selected_tools" BIGINT NOT NULL,
    "selected_tools_sq" DOUBLE PRECISION NOT NULL,
    "reinstatements" BIGINT NOT NULL,
    "empty_palette_warnings" BIGINT NOT NULL,
    "stage_errors" BIGINT NOT NULL,
    "decisions_reinstated" BIGINT NOT NULL,
    "decisions_empty_palette" BIGINT NOT NULL,
    "decisions_stage_error" BIGINT NOT NULL,
    "outcomes" BIGINT NOT NULL,
    "harmful_decisions" BIGINT NOT NULL,
    "harmful_drops" BIGINT NOT NULL,
    "zero_call_outcomes" BIGINT NOT NULL,
    CONSTRAINT "rollup_minute_pkey" PRIMARY KEY ("tenant_id", "role", "mode", "config_version", "bucket")
);
CREATE INDEX "rollup_minute_bucket_idx" ON "rollup_minute"("bucket");

CREATE TABLE "rollup_hour" (LIKE "rollup_minute" INCLUDING DEFAULTS);
ALTER TABLE "rollup_hour" ADD CONSTRAINT "rollup_hour_pkey" PRIMARY KEY ("tenant_id", "role", "mode", "config_version", "bucket");
CREATE INDEX "rollup_hour_bucket_idx" ON "rollup_hour"("bucket");

CREATE TABLE "tool_rollup_hour" (
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
    CONSTRAINT "tool_rollup_hour_pkey" PRIMARY KEY ("tenant_id", "role", "mode", "bucket", "tool")
);
CREATE INDEX "tool_rollup_hour_bucket_idx" ON "tool_rollup_hour"("bucket");
