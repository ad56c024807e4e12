-- Tool lists stored once per tenant. A decision's `offered` list is the agent's palette before
-- narrowing, and an agent offers the same palette over and over: 460 distinct lists among the
-- 10M decisions of the dashboard benchmark, where `offered` took about 430 of a row's 1,200
-- heap bytes. New decisions name their list by `palette_id`; decisions stored before keep their
-- `offered` column, and readers take the palette's list when there is one, else `offered`.
-- Nothing is rewritten: old rows keep their bytes until `npm run prune` drops their week.
--
-- `hash` is the SHA-256 of the list as JSON (names in order), so a list of any length has a
-- short unique key.

CREATE TABLE "palettes" (
    "tenant_id" VARCHAR(100) NOT NULL,
    "id" BIGSERIAL NOT NULL,
    "hash" BYTEA NOT NULL,
    "tools" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "palettes_pkey" PRIMARY KEY ("tenant_id", "id")
);
CREATE UNIQUE INDEX "palettes_tenant_id_hash_key" ON "palettes"("tenant_id", "hash");

ALTER TABLE "decisions" ADD COLUMN "palette_id" BIGINT;
