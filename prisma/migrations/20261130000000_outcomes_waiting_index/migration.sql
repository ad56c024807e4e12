-- Outcomes not yet joined to a decision, by join key. Ingest probes it for every event it
-- stores; it holds only waiting outcomes, so it stays small however large outcomes grows.
CREATE INDEX "outcomes_waiting_idx" ON "outcomes"("tenant_id", "run_id", "iteration") WHERE NOT "joined";
