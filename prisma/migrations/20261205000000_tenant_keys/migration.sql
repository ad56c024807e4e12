-- Every primary key of a table that holds one tenant's rows contains tenant_id, so the table
-- can be distributed by tenant_id (docs/SCALE-OUT-tables.md). No foreign key references these
-- keys; the rows keep their ids.
ALTER TABLE "decisions" DROP CONSTRAINT "decisions_pkey",
    ADD CONSTRAINT "decisions_pkey" PRIMARY KEY ("tenant_id", "id");
ALTER TABLE "outcomes" DROP CONSTRAINT "outcomes_pkey",
    ADD CONSTRAINT "outcomes_pkey" PRIMARY KEY ("tenant_id", "id");
ALTER TABLE "backtests" DROP CONSTRAINT "backtests_pkey",
    ADD CONSTRAINT "backtests_pkey" PRIMARY KEY ("tenant_id", "id");
ALTER TABLE "routing_configs" DROP CONSTRAINT "routing_configs_pkey",
    ADD CONSTRAINT "routing_configs_pkey" PRIMARY KEY ("tenant_id", "id");
