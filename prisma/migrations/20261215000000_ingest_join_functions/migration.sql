-- Ingest's two look-ups of the decision ↔ outcome join (lib/ingest/store-transaction.ts) become
-- functions, so that PostgreSQL plans each once per connection rather than once per batch
-- (docs/PERFORMANCE.md, "2026-12-07, later: the join planned once per connection"). Written
-- into a batch's simple query with its keys as literals, each statement was parsed and planned
-- anew: over the eight week partitions of `decisions`, `outcomes` and `decision_outcomes`,
-- planning the join took 3.2–3.9 ms and the look-up 1.4 ms per batch, nearly as long as running
-- them (4.6–5.2 and 1.6 ms). A PL/pgSQL function keeps its statement's plan for the
-- connection: planned for its arguments at the first five calls, then generically once that
-- plan costs no more. A function call is a statement of a simple query like any other, so a
-- batch's round trips stay as they were, and a connection pooler in transaction mode is no
-- obstacle (a prepared statement would be).
--
-- The plans stay index probes whatever the statistics say: every probe is a LATERAL subquery
-- kept apart from the rest of the query by OFFSET 0, so that PostgreSQL cannot turn it into a
-- hash join that reads a whole table (tests/integration/ingest-lookups.test.ts plans both,
-- for their first calls' arguments and generically, on tables never analysed and on tables
-- analysed before the tenant's rows arrived). Each probe searches every week partition, so:
--
-- * waiting outcomes are probed per run, not per (run, iteration): a batch holds several
--   iterations of a run, and waiting outcomes are few (an outcome waits only until its
--   decision arrives), so a run's are read whole;
-- * a run's decisions are read as the range from its first to its last iteration in the batch
--   (one index search), keeping the batch's iterations with `iteration + 0 = ANY(…)`, a filter:
--   as an index condition each element of the list counts as a search, and on a week partition
--   not yet analysed PostgreSQL then read the tenant's decisions through the primary key
--   instead (docs/PERFORMANCE.md, "2026-12-06, later");
-- * a decision has no outcome yet when its `decision_outcomes` row is missing, found by one
--   probe of that row's primary key (in the partition of the decision's `ts`): a scalar
--   subquery, which PostgreSQL keeps a probe, where NOT EXISTS may become a hash anti join over
--   every outcome row of the tenant.

-- The join keys (tenant, run, iteration) of a batch, `k_…`, at which an outcome waits to be
-- joined (kind 'waiting'); and among the keys where the batch holds both a decision and an
-- outcome, `p_…`, those where a stored decision still waits for its outcome ('unjoined'). Exact
-- at the keys whose advisory locks the calling transaction holds.
CREATE OR REPLACE FUNCTION routelens_waiting_joins(
    k_tenant text[], k_run text[], k_iteration int[],
    p_tenant text[], p_run text[], p_iteration int[])
RETURNS TABLE (kind text, tenant_id text, run_id text, iteration int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH k AS (SELECT * FROM unnest(k_tenant, k_run, k_iteration) AS k(tenant_id, run_id, iteration)),
         runs AS (SELECT DISTINCT k.tenant_id, k.run_id FROM k)
    SELECT 'waiting'::text, r.tenant_id::text, r.run_id::text, w.iteration
      FROM runs r, LATERAL (
             SELECT o.iteration FROM outcomes o
              WHERE o.tenant_id = r.tenant_id AND o.run_id = r.run_id AND NOT o.joined
             OFFSET 0) AS w
     WHERE EXISTS (SELECT 1 FROM k
                    WHERE k.tenant_id = r.tenant_id AND k.run_id = r.run_id
                      AND k.iteration = w.iteration)
    UNION ALL
    SELECT 'unjoined'::text, p.tenant_id::text, p.run_id::text, p.iteration
      FROM unnest(p_tenant, p_run, p_iteration) AS p(tenant_id, run_id, iteration), LATERAL (
             SELECT 1 FROM decisions d
              WHERE d.tenant_id = p.tenant_id AND d.run_id = p.run_id
                AND d.iteration = p.iteration
                AND (SELECT true FROM decision_outcomes j
                      WHERE j.tenant_id = d.tenant_id AND j.decision_id = d.id AND j.ts = d.ts
                      LIMIT 1) IS NULL
              LIMIT 1) AS unjoined;
END
$$;

-- Pairs every not-yet-joined decision with the first not-yet-joined outcome of the same
-- (tenant, run, iteration), at the join keys `k_…`, whichever arrived first: outcomes stored
-- unjoined before (in the order they were stored), then the calling transaction's new outcomes
-- not yet written, `u_…` (in batch order; `unwritten` is an outcome's index there). Marks each
-- stored outcome it pairs as joined, by its whole key (tenant, run, iteration, id, ts), so that
-- no plan can find it by tenant alone, and answers the pairs: the decision's columns (its lists
-- as JSON, which node-postgres reads with JSON.parse rather than its slower text[] parser) and
-- the outcome's calls, or its index among `u_…`.
CREATE OR REPLACE FUNCTION routelens_join_outcomes(
    k_tenant text[], k_run text[], k_iteration int[],
    u_tenant text[], u_run text[], u_iteration int[])
RETURNS TABLE (tenant_id text, run_id text, role text, mode text, config_version text,
               iteration int, ts timestamptz, exact_ts json, decision_id text,
               palette_id text, offered json, selected json, called json, unwritten int)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH keys AS (
           SELECT * FROM unnest(k_tenant, k_run, k_iteration) AS k(tenant_id, run_id, iteration)
         ),
         runs AS (
           SELECT k.tenant_id, k.run_id, array_agg(k.iteration) AS iterations,
                  min(k.iteration) AS first, max(k.iteration) AS last
             FROM keys k GROUP BY k.tenant_id, k.run_id
         ),
         waiting AS MATERIALIZED (
           SELECT r.tenant_id, r.run_id, w.iteration, w.id, w.ts, w.called, NULL::int AS unwritten
             FROM runs r, LATERAL (
               SELECT o.iteration, o.id, o.ts, o.called FROM outcomes o
                WHERE o.tenant_id = r.tenant_id AND o.run_id = r.run_id AND NOT o.joined
               OFFSET 0) AS w
           UNION ALL
           SELECT u.tenant_id, u.run_id, u.iteration, NULL, NULL, NULL, (u.n - 1)::int
             FROM unnest(u_tenant, u_run, u_iteration)
                  WITH ORDINALITY AS u(tenant_id, run_id, iteration, n)
         ),
         unjoined AS MATERIALIZED (
           SELECT d.*
             FROM runs r, LATERAL (
               SELECT d.tenant_id, d.run_id, d.iteration, d.id, d.ts, d.role, d.mode,
                      d.config_version, d.palette_id, d.offered, d.selected
                 FROM decisions d
                WHERE d.tenant_id = r.tenant_id AND d.run_id = r.run_id
                  AND d.iteration BETWEEN r.first AND r.last
                  AND d.iteration + 0 = ANY(r.iterations)
                  AND (SELECT true FROM decision_outcomes j
                        WHERE j.tenant_id = d.tenant_id AND j.decision_id = d.id AND j.ts = d.ts
                        LIMIT 1) IS NULL
               OFFSET 0) AS d
         ),
         pairs AS MATERIALIZED (
           SELECT DISTINCT ON (d.id) d.*, o.id AS outcome_id, o.ts AS outcome_ts, o.called,
                  o.unwritten
             FROM unjoined d
             JOIN waiting o
               ON o.tenant_id = d.tenant_id AND o.run_id = d.run_id AND o.iteration = d.iteration
            -- Stored outcomes first, then the unwritten ones: the order their ids will have.
            ORDER BY d.id, o.unwritten NULLS FIRST, o.id
         ),
         marked AS (
           UPDATE outcomes o SET joined = true FROM pairs p
            WHERE o.tenant_id = p.tenant_id AND o.run_id = p.run_id AND o.iteration = p.iteration
              AND o.id = p.outcome_id AND o.ts = p.outcome_ts
         )
    SELECT p.tenant_id::text, p.run_id::text, p.role::text, p.mode::text,
           p.config_version::text, p.iteration, p.ts, to_json(p.ts), p.id::text,
           p.palette_id::text, CASE WHEN p.palette_id IS NULL THEN to_json(p.offered) END,
           to_json(p.selected), to_json(p.called), p.unwritten
      FROM pairs p;
END
$$;
