-- A tenant's own ingest limits, set by an admin (docs/LIMITS.md): events per second with a
-- burst and requests in progress at once, for the tenant and for each of its keys. A null
-- value, or no row, takes the default the environment sets (lib/env.ts). Read with the key at
-- every ingest request (lib/keys.ts), so a change applies to the next request.

CREATE TABLE "tenant_ingest_limits" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "tenant_events_per_second" INTEGER,
    "tenant_burst" INTEGER,
    "tenant_concurrent_requests" INTEGER,
    "key_events_per_second" INTEGER,
    "key_burst" INTEGER,
    "key_concurrent_requests" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" VARCHAR(64),
    CONSTRAINT "tenant_ingest_limits_pkey" PRIMARY KEY ("tenant_id"),
    CONSTRAINT "tenant_ingest_limits_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "tenant_ingest_limits_updated_by_fkey" FOREIGN KEY ("updated_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "tenant_ingest_limits_positive" CHECK (
        coalesce("tenant_events_per_second", 1) > 0 AND coalesce("tenant_burst", 1) > 0
        AND coalesce("tenant_concurrent_requests", 1) > 0 AND coalesce("key_events_per_second", 1) > 0
        AND coalesce("key_burst", 1) > 0 AND coalesce("key_concurrent_requests", 1) > 0
    )
);
