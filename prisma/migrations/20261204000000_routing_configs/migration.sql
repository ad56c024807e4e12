-- Routing configurations as data (SPEC §10): every saved version of a tenant's configuration,
-- with who saved it (a user, an API key, or Routelens itself for the demo), when, its
-- configVersion and an optional note. The newest revision is the tenant's current config.

CREATE TABLE "routing_configs" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" VARCHAR(100) NOT NULL,
    "revision" INTEGER NOT NULL,
    "config_version" VARCHAR(200) NOT NULL,
    "config" JSON NOT NULL,
    "note" VARCHAR(2000),
    "saved_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "author_kind" VARCHAR(10) NOT NULL,
    "author_user_id" VARCHAR(64),
    "author_key_id" UUID,
    "author_name" VARCHAR(400) NOT NULL,
    CONSTRAINT "routing_configs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "routing_configs_revision_check" CHECK ("revision" >= 1),
    CONSTRAINT "routing_configs_author_kind_check" CHECK ("author_kind" IN ('user', 'key', 'system')),
    CONSTRAINT "routing_configs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "routing_configs_author_user_id_fkey" FOREIGN KEY ("author_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "routing_configs_author_key_id_fkey" FOREIGN KEY ("author_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "routing_configs_tenant_id_revision_key" ON "routing_configs"("tenant_id", "revision");
CREATE INDEX "routing_configs_tenant_id_config_version_idx" ON "routing_configs"("tenant_id", "config_version");

-- What an API key may do: `ingest` (send events; every key so far) or `configs` (read and
-- change its tenant's routing configuration, for CI pipelines; it cannot ingest).
ALTER TABLE "api_keys" ADD COLUMN "scope" VARCHAR(10) NOT NULL DEFAULT 'ingest';
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_check" CHECK ("scope" IN ('ingest', 'configs'));
