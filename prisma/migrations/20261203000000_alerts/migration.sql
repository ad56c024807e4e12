-- Alerts (SPEC §9): rules on routing health, their evaluated state, the history of their
-- transitions, the channels they notify and the outbox of deliveries with every attempt.
-- Every table carries tenant_id; NULL there means a rule over all tenants (admins only).

CREATE TABLE "alert_rules" (
    "id" UUID NOT NULL,
    "tenant_id" VARCHAR(100),
    "name" VARCHAR(200) NOT NULL,
    "role" VARCHAR(200),
    "mode" VARCHAR(16),
    "metric" VARCHAR(40) NOT NULL,
    "window_minutes" INTEGER NOT NULL,
    "comparison" VARCHAR(4) NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "min_sample" INTEGER NOT NULL DEFAULT 0,
    "muted_until" TIMESTAMPTZ(3),
    "created_by" VARCHAR(64),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_rules_window_check" CHECK ("window_minutes" BETWEEN 5 AND 1440),
    CONSTRAINT "alert_rules_comparison_check" CHECK ("comparison" IN ('gt', 'gte', 'lt', 'lte')),
    CONSTRAINT "alert_rules_min_sample_check" CHECK ("min_sample" >= 0),
    CONSTRAINT "alert_rules_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "alert_rules_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "alert_rules_tenant_id_idx" ON "alert_rules"("tenant_id");

CREATE TABLE "alert_states" (
    "rule_id" UUID NOT NULL,
    "tenant_id" VARCHAR(100),
    "state" VARCHAR(10) NOT NULL DEFAULT 'ok',
    "last_value" DOUBLE PRECISION,
    "last_sample" BIGINT,
    "below_min_sample" BOOLEAN NOT NULL DEFAULT false,
    "since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_evaluated_minute" TIMESTAMPTZ(3),
    "notified_state" VARCHAR(10) NOT NULL DEFAULT 'ok',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "alert_states_pkey" PRIMARY KEY ("rule_id"),
    CONSTRAINT "alert_states_state_check" CHECK ("state" IN ('ok', 'firing')),
    CONSTRAINT "alert_states_notified_state_check" CHECK ("notified_state" IN ('ok', 'firing')),
    CONSTRAINT "alert_states_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "alert_states_tenant_id_idx" ON "alert_states"("tenant_id");

CREATE TABLE "alert_events" (
    "id" BIGSERIAL NOT NULL,
    "rule_id" UUID NOT NULL,
    "tenant_id" VARCHAR(100),
    "kind" VARCHAR(10) NOT NULL,
    "value" DOUBLE PRECISION,
    "sample" BIGINT NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "minute" TIMESTAMPTZ(3) NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "muted" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "alert_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_events_kind_check" CHECK ("kind" IN ('firing', 'resolved')),
    CONSTRAINT "alert_events_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "alert_events_rule_id_minute_key" ON "alert_events"("rule_id", "minute");
CREATE INDEX "alert_events_tenant_id_minute_idx" ON "alert_events"("tenant_id", "minute" DESC);
CREATE INDEX "alert_events_minute_idx" ON "alert_events"("minute" DESC);

CREATE TABLE "alert_channels" (
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "tenant_id" VARCHAR(100),
    "kind" VARCHAR(10) NOT NULL,
    "url" VARCHAR(2000) NOT NULL,
    "secret" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "alert_channels_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_channels_kind_check" CHECK ("kind" IN ('webhook', 'slack')),
    CONSTRAINT "alert_channels_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "alert_channels_rule_id_idx" ON "alert_channels"("rule_id");

CREATE TABLE "alert_deliveries" (
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "tenant_id" VARCHAR(100),
    "channel_id" UUID NOT NULL,
    "event_id" BIGINT,
    "kind" VARCHAR(10) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" VARCHAR(10) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),
    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_deliveries_kind_check" CHECK ("kind" IN ('firing', 'resolved', 'test')),
    CONSTRAINT "alert_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed')),
    CONSTRAINT "alert_deliveries_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "alert_deliveries_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "alert_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "alert_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "alert_events"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "alert_deliveries_event_id_channel_id_key" ON "alert_deliveries"("event_id", "channel_id");
CREATE INDEX "alert_deliveries_rule_id_created_at_idx" ON "alert_deliveries"("rule_id", "created_at" DESC);
CREATE INDEX "alert_deliveries_status_next_attempt_at_idx" ON "alert_deliveries"("status", "next_attempt_at");

CREATE TABLE "alert_delivery_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "tenant_id" VARCHAR(100),
    "attempt" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" VARCHAR(500),
    "next_attempt_at" TIMESTAMPTZ(3),
    CONSTRAINT "alert_delivery_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "alert_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "alert_delivery_attempts_delivery_id_attempt_key" ON "alert_delivery_attempts"("delivery_id", "attempt");
