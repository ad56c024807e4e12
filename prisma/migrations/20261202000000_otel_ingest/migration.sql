-- OpenTelemetry ingest (SPEC §8): the spans Routelens reads from OTLP exports, each tool's
-- context cost from its definition, LLM calls that carried no tool list, and the count of a
-- tool's offers the model did not use (the context tax).

-- LLM-call and tool-run spans as received (one row per span, idempotent by trace and span id).
-- Decisions and outcomes are derived from a run's LLM-call spans; tool runs are joined to the
-- LLM call that asked for them when a run is read.
CREATE TABLE "otel_spans" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "trace_id" VARCHAR(32) NOT NULL,
    "span_id" VARCHAR(16) NOT NULL,
    "run_id" VARCHAR(200) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "start_ns" BIGINT NOT NULL,
    "end_ns" BIGINT NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "tool" VARCHAR(200),
    "call_id" VARCHAR(200),
    "call_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "error" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "otel_spans_pkey" PRIMARY KEY ("tenant_id", "trace_id", "span_id")
);
CREATE INDEX "otel_spans_tenant_id_run_id_start_ns_idx" ON "otel_spans"("tenant_id", "run_id", "start_ns");
CREATE INDEX "otel_spans_ts_idx" ON "otel_spans"("ts");

-- Per (tenant, tool): the estimated tokens of the tool's definition, as last seen.
CREATE TABLE "tool_sizes" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "tool" VARCHAR(200) NOT NULL,
    "tokens" INTEGER NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "tool_sizes_pkey" PRIMARY KEY ("tenant_id", "tool")
);

-- Per (tenant, role, hour): LLM-call spans that carried no tool list (tool recording off).
CREATE TABLE "otel_call_rollup_hour" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "role" VARCHAR(200) NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "calls_without_tools" BIGINT NOT NULL,
    CONSTRAINT "otel_call_rollup_hour_pkey" PRIMARY KEY ("tenant_id", "role", "bucket")
);
CREATE INDEX "otel_call_rollup_hour_bucket_idx" ON "otel_call_rollup_hour"("bucket");

-- Decisions with an outcome where the tool was in front of the model (offered in observe and
-- off, selected in enforce) and the model did not call it.
ALTER TABLE "tool_rollup_hour" ADD COLUMN "unused_offers" BIGINT NOT NULL DEFAULT 0;
