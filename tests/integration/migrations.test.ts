import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MigrationError, migrate, readMigrations } from "@/lib/db/migrate";
import { pruneOlderThan } from "@/lib/db/prune";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { offeredOf, paletteHash } from "@/lib/ingest/palettes";
import { decisionEvent, outcomeEvent } from "@/lib/telemetry/events";
import { startAppServer } from "@/scripts/lib/app-server";
import { dropDatabase, ensureDatabase } from "@/scripts/lib/local-postgres";
import { seedApiKey } from "@/scripts/lib/seed-key";
import { postBatch } from "../support/http";
import {
  compareSchema,
  describeDatabase,
  describePartitions,
  describeSchema,
} from "../support/schema-drift";

const migratedUrl = inject("databaseUrl");
const TOOL_ROLLUP_DAY = "20261204010000_tool_rollup_day";
const TIME_PARTITIONS = "20261206000000_time_partitions";
const ROLLUP_DAY = "20261209000000_rollup_day";
const WITHOUT_DROPPED = "20261210000000_decisions_without_dropped";
const PALETTES = "20261211000000_palettes";
const PALETTE_RETENTION = "20261212000000_palette_retention";
const DECISION_OUTCOMES = "20261213000000_decision_outcomes";

/** `first` and every migration after it: what a database migrated before `first` lacks. */
async function fromOn(first: string): Promise<string[]> {
  return (await readMigrations()).map((m) => m.name).filter((name) => name >= first);
}

/**
 * A scratch database migrated with every migration but `held` (the schema a database had before
 * them), and the directory of migrations it was migrated from.
 */
async function migratedWithout(
  label: string,
  ...held: string[]
): Promise<{ url: string; dir: string }> {
  const url = await scratchDatabase(label);
  const dir = await mkdtemp(path.join(tmpdir(), "routelens-migrations-"));
  await cp("prisma/migrations", dir, { recursive: true });
  for (const name of held) await rm(path.join(dir, name), { recursive: true });
  await migrate(url, { dir });
  return { url, dir };
}

/** Puts migrations held back from `dir` back in, to be applied by the next `migrate`. */
async function restore(dir: string, ...names: string[]): Promise<void> {
  for (const name of names) {
    await cp(path.join("prisma/migrations", name), path.join(dir, name), { recursive: true });
  }
}
const serverUrl = new URL(migratedUrl);

function databaseUrl(name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const scratch: string[] = [];
async function scratchDatabase(label: string): Promise<string> {
  const name = `${serverUrl.pathname.slice(1)}_${label}`;
  await ensureDatabase(databaseUrl("postgres"), name);
  scratch.push(name);
  return databaseUrl(name);
}

afterAll(async () => {
  for (const name of scratch) await dropDatabase(databaseUrl("postgres"), name);
});

function runMigrator(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["--no-install", "tsx", "scripts/migrate.ts"], {
      env: { ...process.env, DATABASE_URL: url },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("migrator", () => {
  it("applies every migration once when two migrators start together on an empty database", async () => {
    const url = await scratchDatabase("race");
    const [first, second] = await Promise.all([runMigrator(url), runMigrator(url)]);
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      `SELECT migration_name, count(*)::int AS n, min(checksum) AS checksum, min(applied_steps_count) AS steps,
              bool_and(finished_at IS NOT NULL) AS finished
         FROM _prisma_migrations GROUP BY migration_name ORDER BY migration_name`,
    );
    await client.end();
    const files = await readMigrations();
    expect(rows).toEqual(
      files.map((file) => ({
        migration_name: file.name,
        n: 1,
        checksum: file.checksum,
        steps: 1,
        finished: true,
      })),
    );
  });

  it("records the SHA-256 of each file as its checksum, as Prisma does", async () => {
    const [first] = await readMigrations();
    if (!first) throw new Error("no migrations");
    const { createHash } = await import("node:crypto");
    const bytes = await readFile(path.join("prisma/migrations", first.name, "migration.sql"));
    expect(first.checksum).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("stops with a clear message when an applied migration file was edited", async () => {
    const url = await scratchDatabase("edited");
    const dir = await mkdtemp(path.join(tmpdir(), "routelens-migrations-"));
    await cp("prisma/migrations", dir, { recursive: true });
    await migrate(url, { dir });
    const [first] = await readMigrations(dir);
    if (!first) throw new Error("no migrations");
    const file = path.join(dir, first.name, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- edited after it was applied\n`);
    await expect(migrate(url, { dir })).rejects.toThrow(MigrationError);
    await expect(migrate(url, { dir })).rejects.toThrow(
      new RegExp(`${first.name} was changed after it was applied`),
    );
  });

  it("rolls back a failing migration and does not record it", async () => {
    const url = await scratchDatabase("failing");
    const dir = await mkdtemp(path.join(tmpdir(), "routelens-migrations-"));
    await cp("prisma/migrations", dir, { recursive: true });
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.join(dir, "99990101000000_broken"));
    await writeFile(
      path.join(dir, "99990101000000_broken", "migration.sql"),
      'CREATE TABLE "half_done" (id int);\nSELECT * FROM no_such_table;\n',
    );
    await expect(migrate(url, { dir })).rejects.toThrow(
      /99990101000000_broken failed and was rolled back/,
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = await client.query("SELECT to_regclass('half_done') AS t");
    const recorded = await client.query(
      "SELECT count(*)::int AS n FROM _prisma_migrations WHERE migration_name LIKE '9999%'",
    );
    await client.end();
    expect(tables.rows[0].t).toBeNull();
    expect(recorded.rows[0].n).toBe(0);
  });
});

describe("rollup_day migration", () => {
  it("fills the day rollup with the sums of the hourly rows already stored", async () => {
    const { url, dir } = await migratedWithout("rollup_day", ROLLUP_DAY);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Hours on either side of a UTC midnight, two modes, two config versions.
      const hours = ["2026-11-01T00:00Z", "2026-11-01T23:00Z", "2026-11-02T00:00Z"];
      let n = 0;
      for (const bucket of hours) {
        for (const mode of ["observe", "enforce"]) {
          for (const configVersion of ["", "cfg-b"]) {
            n += 1;
            await client.query(
              `INSERT INTO rollup_hour (tenant_id, role, mode, config_version, bucket, decisions,
                 dropped_tokens, dropped_tokens_sq, offered_tools, offered_tools_sq,
                 selected_tools, selected_tools_sq, reinstatements, empty_palette_warnings,
                 stage_errors, decisions_reinstated, decisions_empty_palette,
                 decisions_stage_error, outcomes, harmful_decisions, harmful_drops,
                 zero_call_outcomes)
               VALUES ('t', 'planner', $1, $2, $3, $4::int, $4::int * 100, $4::int * 0.5,
                       $4::int * 8, $4::int * 64.0, $4::int * 2, $4::int * 4.0, 1, 2, 3, 1, 1, 1,
                       $4::int - 1, 1, 2, 1)`,
              [mode, configVersion, bucket, n],
            );
          }
        }
      }
      await cp(path.join("prisma/migrations", ROLLUP_DAY), path.join(dir, ROLLUP_DAY), {
        recursive: true,
      });
      await migrate(url, { dir });
      const measures = `sum(decisions)::int AS decisions, sum(dropped_tokens)::int AS dropped_tokens,
              sum(dropped_tokens_sq) AS dropped_tokens_sq, sum(offered_tools)::int AS offered_tools,
              sum(selected_tools_sq) AS selected_tools_sq, sum(outcomes)::int AS outcomes,
              sum(harmful_drops)::int AS harmful_drops,
              sum(zero_call_outcomes)::int AS zero_call_outcomes`;
      const expected = await client.query(
        `SELECT mode, config_version,
                date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket, ${measures}
           FROM rollup_hour GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      );
      const days = await client.query(
        `SELECT mode, config_version, bucket, ${measures}
           FROM rollup_day GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      );
      expect(days.rows).toHaveLength(8);
      expect(days.rows).toEqual(expected.rows);
      expect(days.rows[0]).toMatchObject({
        mode: "enforce",
        config_version: "",
        bucket: new Date("2026-11-01T00:00Z"),
        // n = 3 and 7 on the first day.
        decisions: 10,
        dropped_tokens: 1_000,
        outcomes: 8,
      });
    } finally {
      await client.end();
    }
  });
});

describe("tool_rollup_day migration", () => {
  it("fills the day rollup with the sums of the hourly rows already stored", async () => {
    const { url, dir } = await migratedWithout("tool_day", TOOL_ROLLUP_DAY);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Two UTC days, hours on either side of midnight, two tools, two modes.
      const hours = [
        "2026-11-01T00:00Z",
        "2026-11-01T13:00Z",
        "2026-11-01T23:00Z",
        "2026-11-02T00:00Z",
      ];
      let n = 0;
      for (const bucket of hours) {
        for (const mode of ["observe", "off"]) {
          for (const tool of ["search", "refund"]) {
            n += 1;
            await client.query(
              `INSERT INTO tool_rollup_hour (tenant_id, role, mode, bucket, tool, offered, selected,
                 dropped, called, harmful_drops, dropped_tokens, unused_offers)
               VALUES ('t', 'planner', $1, $2, $3, $4::bigint, $4::bigint - 1, 1, $4::bigint - 2,
                       $4::bigint % 2, $4::bigint * 1.5, 2)`,
              [mode, bucket, tool, n + 3],
            );
          }
        }
      }
      await cp(path.join("prisma/migrations", TOOL_ROLLUP_DAY), path.join(dir, TOOL_ROLLUP_DAY), {
        recursive: true,
      });
      await migrate(url, { dir });
      const summed = `SELECT tenant_id, role, mode, tool,
              date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket,
              sum(offered)::int AS offered, sum(selected)::int AS selected,
              sum(dropped)::int AS dropped, sum(called)::int AS called,
              sum(harmful_drops)::int AS harmful_drops, sum(dropped_tokens) AS dropped_tokens,
              sum(unused_offers)::int AS unused_offers
         FROM tool_rollup_hour GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`;
      const days = await client.query(
        `SELECT tenant_id, role, mode, tool, bucket, offered::int, selected::int, dropped::int,
                called::int, harmful_drops::int, dropped_tokens, unused_offers::int
           FROM tool_rollup_day ORDER BY 1, 2, 3, 4, 5`,
      );
      const expected = await client.query(summed);
      expect(days.rows).toHaveLength(8);
      expect(days.rows).toEqual(expected.rows);
      expect(days.rows[0]).toMatchObject({
        mode: "observe",
        tool: "refund",
        bucket: new Date("2026-11-01T00:00Z"),
        // n = 2, 6, 10 on the first day: offered 5 + 9 + 13.
        offered: 27,
        unused_offers: 6,
      });
    } finally {
      await client.end();
    }
  });
});

describe("time_partitions migration", () => {
  it("moves every stored decision and outcome into week partitions, and ingest still refuses their ids", async () => {
    // Decisions stored by that schema still had their `dropped` list, and no palette.
    const { url, dir } = await migratedWithout(
      "partitions",
      TIME_PARTITIONS,
      ...(await fromOn(WITHOUT_DROPPED)),
    );
    const key = await seedApiKey(url, "t");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const day = 86_400_000;
    // A decision and its outcome 2001, 60 and 10 days back, now and 20 hours ahead; the last
    // outcome is still waiting for a decision of its iteration.
    const times = [
      Date.UTC(2001, 0, 1),
      Date.now() - 60 * day,
      Date.now() - 10 * day,
      Date.now(),
      Date.now() + 20 * 3_600_000,
    ];
    try {
      for (const [i, ms] of times.entries()) {
        await client.query(
          `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
             ts, offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
             empty_palette_warnings, stage_errors, offered, selected, dropped, trace, warnings,
             has_outcome, called)
           VALUES ('t', $1, 'run-1', 'action', 'observe', $2, 0, $3, 2, 1, 1, 40, 0, 0, 0,
                   '{a,b}', '{a}', '{b}', '[]', '[]', $4, $5)`,
          [`d-${i}`, i, new Date(ms), i < 4, i < 4 ? ["a"] : []],
        );
        await client.query(
          `INSERT INTO outcomes (tenant_id, event_id, run_id, role, iteration, ts, called, joined)
           VALUES ('t', $1, 'run-1', 'action', $2, $3, '{a}', $4)`,
          [`o-${i}`, i, new Date(ms + 1_000), i < 4],
        );
      }
      await client.query(
        "UPDATE decisions SET has_outcome = false, called = '{}', iteration = 9 WHERE iteration = 4",
      );
      const snapshot = async () =>
        (
          await client.query(
            `SELECT (SELECT md5(string_agg(d::text, '|' ORDER BY id)) FROM decisions d) AS decisions,
                    (SELECT md5(string_agg(o::text, '|' ORDER BY id)) FROM outcomes o) AS outcomes,
                    (SELECT count(*)::int FROM decisions) + (SELECT count(*)::int FROM outcomes) AS n`,
          )
        ).rows[0];
      const before = await snapshot();
      expect(before.n).toBe(10);

      await cp(path.join("prisma/migrations", TIME_PARTITIONS), path.join(dir, TIME_PARTITIONS), {
        recursive: true,
      });
      await migrate(url, { dir });
      expect(await snapshot()).toEqual(before);
      const placed = await client.query<{ event_id: string; part: string }>(
        `SELECT event_id, tableoid::regclass::text AS part FROM decisions ORDER BY iteration`,
      );
      // 2001 is beyond a year back: the default partition; the others their own weeks.
      expect(placed.rows[0]).toEqual({ event_id: "d-0", part: "decisions_default" });
      for (const row of placed.rows.slice(1)) expect(row.part).toMatch(/^decisions_p\d{8}$/);
      expect(new Set(placed.rows.slice(1).map((r) => r.part)).size).toBeGreaterThanOrEqual(3);
      const ids = await client.query("SELECT count(*)::int AS n FROM event_ids");
      expect(ids.rows[0].n).toBe(10);

      await restore(dir, ...(await fromOn(WITHOUT_DROPPED)));
      await migrate(url, { dir });

      // Ingest on the migrated database: the stored ids are duplicates, whatever the
      // timestamp they come with; the waiting outcome is joined to a new decision; new ids
      // are stored after the moved rows' ids.
      const app = await startAppServer({ databaseUrl: url });
      try {
        const resent = times.map((ms, i) =>
          decisionEvent({
            event_id: `d-${i}`,
            run_id: "run-1",
            iteration: i,
            timestamp: new Date(i % 2 ? ms : Date.now()).toISOString(),
            tenant_id: "t",
          }),
        );
        const response = await postBatch(app.baseUrl, key, resent);
        expect(response.status).toBe(200);
        const body = await response.json();
        expect(body.successes.map((s: { status: number }) => s.status)).toEqual(
          resent.map(() => 200),
        );
        const fresh = decisionEvent({ run_id: "run-1", iteration: 4, tenant_id: "t" });
        expect((await postBatch(app.baseUrl, key, [fresh])).status).toBe(200);
      } finally {
        await app.stop();
      }
      const after = await client.query(
        `SELECT (SELECT count(*)::int FROM decisions) AS decisions,
                (SELECT count(*)::int FROM outcomes) AS outcomes,
                (SELECT count(*)::int FROM outcomes WHERE NOT joined) AS waiting,
                (SELECT has_outcome FROM ${DECISIONS_WITH_OUTCOMES} d
                  WHERE event_id NOT LIKE 'd-%') AS joined,
                (SELECT min(id)::int FROM decisions WHERE event_id NOT LIKE 'd-%') >
                  (SELECT max(id)::int FROM decisions WHERE event_id LIKE 'd-%') AS ids_follow`,
      );
      expect(after.rows[0]).toEqual({
        decisions: 6,
        outcomes: 5,
        waiting: 0,
        joined: true,
        ids_follow: true,
      });
    } finally {
      await client.end();
    }
  });
});

describe("schema drift", () => {
  let client: pg.Client;
  let schemaText: string;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: migratedUrl });
    await client.connect();
    schemaText = await readFile("prisma/schema.prisma", "utf8");
  });

  afterAll(async () => {
    await client.end();
  });

  it("the migrated database matches schema.prisma exactly", async () => {
    const drift = compareSchema(describeSchema(schemaText), await describeDatabase(client));
    expect(drift).toEqual({ missingInDatabase: [], notInSchema: [] });
  });

  it("gives every partition of a partitioned table its parent's columns and indexes", async () => {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_inherits i
         JOIN pg_class p ON p.oid = i.inhparent AND p.relkind = 'p'
        WHERE p.relname IN ('decisions', 'outcomes')`,
    );
    // The default partitions and at least the weeks around now.
    expect(rows[0]?.n).toBeGreaterThanOrEqual(2 * 7);
    expect(await describePartitions(client)).toEqual([]);
  });

  it("detects a partition that lacks an index of its parent", async () => {
    await client.query("BEGIN");
    try {
      await client.query(
        `CREATE TABLE drift_probe_parent (tenant_id text NOT NULL, ts timestamptz NOT NULL)
           PARTITION BY RANGE (ts)`,
      );
      await client.query(
        "CREATE TABLE drift_probe_part (tenant_id text NOT NULL, ts timestamptz NOT NULL)",
      );
      await client.query(
        `ALTER TABLE drift_probe_parent ATTACH PARTITION drift_probe_part
           FOR VALUES FROM ('2026-01-01') TO ('2026-02-01')`,
      );
      await client.query("CREATE INDEX drift_probe_idx ON ONLY drift_probe_parent (tenant_id)");
      expect(await describePartitions(client)).toEqual([
        "index drift_probe_idx missing for drift_probe_part",
      ]);
    } finally {
      await client.query("ROLLBACK");
    }
  });

  it("detects a field added to schema.prisma without a migration", async () => {
    const edited = schemaText.replace(
      "model Tenant {",
      'model Tenant {\n  plan String @default("free") @db.VarChar(20)',
    );
    const drift = compareSchema(describeSchema(edited), await describeDatabase(client));
    expect(drift.missingInDatabase).toEqual([
      'column tenants.plan character varying(20) not null default value "free"',
    ]);
  });

  it("detects an index declared in schema.prisma that no migration creates", async () => {
    const edited = schemaText.replace(
      '@@index([ts])\n  @@map("outcomes")',
      '@@index([ts])\n  @@index([role])\n  @@map("outcomes")',
    );
    expect(edited).not.toBe(schemaText);
    const drift = compareSchema(describeSchema(edited), await describeDatabase(client));
    expect(drift.missingInDatabase).toEqual(["index outcomes.outcomes_role_idx (role)"]);
  });
});

describe("decisions_without_dropped migration", () => {
  it("keeps every stored decision, and one stored before it still gets its harmful tools when its outcome comes", async () => {
    const { url, dir } = await migratedWithout(
      "without_dropped",
      ...(await fromOn(WITHOUT_DROPPED)),
    );
    const key = await seedApiKey(url, "t");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Two decisions waiting for their outcome, one with a tool offered twice.
      for (const [iteration, offered] of [
        [0, ["a", "b", "c"]],
        [1, ["a", "b", "a"]],
      ] as const) {
        await client.query(
          `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
             ts, offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
             empty_palette_warnings, stage_errors, offered, selected, dropped, trace, warnings)
           VALUES ('t', $1, 'run-1', 'action', 'observe', $2, 0, now(), $3, 1, 2, 40, 0, 0, 0,
                   $4, '{a}', $5, '[]', '[]')`,
          [`d-${iteration}`, iteration, offered.length, offered, offered.slice(1)],
        );
      }
      const snapshot = async () =>
        (
          await client.query(
            // Without the columns later migrations move: the outcome's (decision_outcomes).
            `SELECT md5(string_agg((to_jsonb(d) - 'dropped' - 'palette_id' - 'has_outcome' - 'called'
                                    - 'harmful_tools')::text, '|' ORDER BY id)) AS rows,
                    count(*)::int AS n
               FROM decisions d`,
          )
        ).rows[0];
      const before = await snapshot();
      expect(before.n).toBe(2);

      await restore(dir, ...(await fromOn(WITHOUT_DROPPED)));
      await migrate(url, { dir });
      expect(await snapshot()).toEqual(before);
      const columns = await client.query(
        `SELECT count(*)::int AS n FROM information_schema.columns
          WHERE table_name LIKE 'decisions%' AND column_name = 'dropped'`,
      );
      expect(columns.rows[0].n).toBe(0);

      // The outcomes, on the migrated database: what they called that `offered` has and
      // `selected` has not is a harmful drop, as the stored list said.
      const app = await startAppServer({ databaseUrl: url });
      try {
        const outcomes = [
          outcomeEvent({ run_id: "run-1", iteration: 0, called: ["c", "a", "z"], tenant_id: "t" }),
          outcomeEvent({ run_id: "run-1", iteration: 1, called: ["b", "b"], tenant_id: "t" }),
        ];
        expect((await postBatch(app.baseUrl, key, outcomes)).status).toBe(200);
      } finally {
        await app.stop();
      }
      const joined = await client.query(
        `SELECT iteration, has_outcome, harmful_tools FROM ${DECISIONS_WITH_OUTCOMES} d
          ORDER BY iteration`,
      );
      expect(joined.rows).toEqual([
        { iteration: 0, has_outcome: true, harmful_tools: ["c"] },
        { iteration: 1, has_outcome: true, harmful_tools: ["b"] },
      ]);
      const tools = await client.query(
        `SELECT tool, sum(harmful_drops)::int AS harmful FROM tool_rollup_hour
          GROUP BY tool HAVING sum(harmful_drops) > 0 ORDER BY tool`,
      );
      expect(tools.rows).toEqual([
        { tool: "b", harmful: 1 },
        { tool: "c", harmful: 1 },
      ]);
    } finally {
      await client.end();
    }
  });
});

describe("palettes migration", () => {
  it("keeps the lists of decisions stored before it, and stores each new list once per tenant", async () => {
    const { url, dir } = await migratedWithout("palettes", ...(await fromOn(PALETTES)));
    const keyT = await seedApiKey(url, "t");
    const keyU = await seedApiKey(url, "u");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
           ts, offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
           empty_palette_warnings, stage_errors, offered, selected, trace, warnings)
         VALUES ('t', 'd-old', 'run-1', 'action', 'observe', 0, 0, now(), 2, 1, 1, 40, 0, 0, 0,
                 '{old_a,old_b}', '{old_a}', '[]', '[]')`,
      );
      await restore(dir, ...(await fromOn(PALETTES)));
      await migrate(url, { dir });

      const app = await startAppServer({ databaseUrl: url });
      try {
        const long = ["lookup", "refund_order", 'quo"te', "caf\u00e9"];
        const decision = (iteration: number, offered: string[], tenant: string) =>
          decisionEvent({
            run_id: "run-1",
            iteration,
            offered,
            selected: offered.slice(0, 1),
            tenant_id: tenant,
          });
        // The same list twice in one request and again in the next; another list; the same
        // list under another tenant.
        const first = [decision(1, long, "t"), decision(2, long, "t"), decision(3, ["x"], "t")];
        expect((await postBatch(app.baseUrl, keyT, first)).status).toBe(200);
        expect((await postBatch(app.baseUrl, keyT, [decision(4, long, "t")])).status).toBe(200);
        expect((await postBatch(app.baseUrl, keyU, [decision(1, long, "u")])).status).toBe(200);
      } finally {
        await app.stop();
      }
      const stored = await client.query(
        `SELECT d.tenant_id, d.iteration, d.palette_id IS NOT NULL AS named, d.offered IS NULL AS bare,
                ${offeredOf("d")} AS offered
           FROM decisions d ORDER BY d.tenant_id, d.iteration`,
      );
      const long = ["lookup", "refund_order", 'quo"te', "caf\u00e9"];
      expect(stored.rows).toEqual([
        { tenant_id: "t", iteration: 0, named: false, bare: false, offered: ["old_a", "old_b"] },
        { tenant_id: "t", iteration: 1, named: true, bare: true, offered: long },
        { tenant_id: "t", iteration: 2, named: true, bare: true, offered: long },
        { tenant_id: "t", iteration: 3, named: true, bare: true, offered: ["x"] },
        { tenant_id: "t", iteration: 4, named: true, bare: true, offered: long },
        { tenant_id: "u", iteration: 1, named: true, bare: true, offered: long },
      ]);
      const palettes = await client.query(
        `SELECT tenant_id, tools, encode(hash, 'hex') AS hash FROM palettes ORDER BY tenant_id, cardinality(tools)`,
      );
      expect(palettes.rows).toEqual([
        { tenant_id: "t", tools: ["x"], hash: paletteHash(["x"]) },
        { tenant_id: "t", tools: long, hash: paletteHash(long) },
        { tenant_id: "u", tools: long, hash: paletteHash(long) },
      ]);
    } finally {
      await client.end();
    }
  });
});

describe("palette_retention migration", () => {
  it("gives the lists stored before it the day after it as their last day, so a prune keeps them", async () => {
    const { url, dir } = await migratedWithout(
      "palette_retention",
      ...(await fromOn(PALETTE_RETENTION)),
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO palettes (tenant_id, hash, tools) VALUES ('t', decode($1, 'hex'), '{a,b}')`,
        [paletteHash(["a", "b"])],
      );
      await restore(dir, ...(await fromOn(PALETTE_RETENTION)));
      await migrate(url, { dir });
      const { rows } = await client.query(
        `SELECT last_day = (now() AT TIME ZONE 'UTC')::date + 1 AS day_after FROM palettes`,
      );
      expect(rows).toEqual([{ day_after: true }]);

      const pool = new pg.Pool({ connectionString: url });
      try {
        expect((await pruneOlderThan(pool, new Date())).palettes).toBe(0);
      } finally {
        await pool.end();
      }
      // New lists say their day: the column has no default.
      await expect(
        client.query(`INSERT INTO palettes (tenant_id, hash, tools) VALUES ('t', '\\x00', '{c}')`),
      ).rejects.toThrow(/last_day/);
    } finally {
      await client.end();
    }
  });
});

describe("decision_outcomes migration", () => {
  it("moves every joined decision's outcome to its own row, in its decision's week, and keeps joining", async () => {
    const { url, dir } = await migratedWithout(
      "decision_outcomes",
      ...(await fromOn(DECISION_OUTCOMES)),
    );
    const key = await seedApiKey(url, "t");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const day = 86_400_000;
    try {
      await client.query(
        "INSERT INTO palettes (tenant_id, hash, tools, last_day) VALUES ('t', '\\x01', '{a,b,c}', '2100-01-01')",
      );
      // Joined decisions this week, 10 days back and in 2001 (the default partition), one
      // joined with no call, and one still waiting for its outcome.
      const decisions = [
        { ms: Date.now(), called: ["b", "z"], harmful: ["b"] },
        { ms: Date.now() - 10 * day, called: ["a"], harmful: [] },
        { ms: Date.UTC(2001, 0, 1), called: ["c"], harmful: ["c"] },
        { ms: Date.now() - day, called: [], harmful: [] },
        { ms: Date.now(), called: null, harmful: [] },
      ];
      for (const [i, d] of decisions.entries()) {
        await client.query(
          `INSERT INTO decisions (tenant_id, event_id, run_id, role, mode, iteration, turn_hop_index,
             ts, offered_count, selected_count, dropped_count, dropped_tokens, reinstatements,
             empty_palette_warnings, stage_errors, palette_id, selected, trace, warnings,
             has_outcome, called, harmful_tools)
           VALUES ('t', $1, 'run-1', 'action', 'observe', $2, 0, $3, 3, 1, 2, 40, 0, 0, 0,
                   (SELECT id FROM palettes), '{a}', '[]', '[]', $4, $5, $6)`,
          [`d-${i}`, i, new Date(d.ms), d.called !== null, d.called ?? [], d.harmful],
        );
      }
      const snapshot = async () =>
        (
          await client.query(
            `SELECT md5(string_agg((to_jsonb(d) - 'has_outcome' - 'called' - 'harmful_tools')::text,
                                   '|' ORDER BY id)) AS rows,
                    count(*)::int AS n
               FROM decisions d`,
          )
        ).rows[0];
      const before = await snapshot();

      await restore(dir, ...(await fromOn(DECISION_OUTCOMES)));
      await migrate(url, { dir });
      expect(await snapshot()).toEqual(before);
      const columns = await client.query(
        `SELECT count(*)::int AS n FROM information_schema.columns
          WHERE table_name LIKE 'decisions%'
            AND column_name IN ('has_outcome', 'called', 'harmful_tools')`,
      );
      expect(columns.rows[0].n).toBe(0);
      const moved = await client.query(
        `SELECT event_id, has_outcome, called, harmful_tools FROM ${DECISIONS_WITH_OUTCOMES} d
          ORDER BY iteration`,
      );
      expect(moved.rows).toEqual(
        decisions.map((d, i) => ({
          event_id: `d-${i}`,
          has_outcome: d.called !== null,
          called: d.called ?? [],
          harmful_tools: d.harmful,
        })),
      );
      // Each outcome row lies in the week partition of its decision (2001: the default one).
      const placed = await client.query(
        `SELECT d.event_id, replace(j.tableoid::regclass::text, 'decision_outcomes', '') AS outcome_part,
                replace(d.tableoid::regclass::text, 'decisions', '') AS decision_part
           FROM decisions d
           JOIN decision_outcomes j ON j.tenant_id = d.tenant_id AND j.decision_id = d.id AND j.ts = d.ts
          ORDER BY d.iteration`,
      );
      expect(placed.rows).toHaveLength(4);
      for (const row of placed.rows) expect(row.outcome_part).toBe(row.decision_part);
      expect(placed.rows.map((row) => row.outcome_part)).toContain("_default");

      // The waiting decision joins its outcome on the migrated database, and a new pair sent
      // together is stored joined.
      const app = await startAppServer({ databaseUrl: url });
      try {
        const batch = [
          outcomeEvent({ run_id: "run-1", iteration: 4, called: ["c"], tenant_id: "t" }),
          decisionEvent({ run_id: "run-1", iteration: 5, tenant_id: "t" }),
          outcomeEvent({ run_id: "run-1", iteration: 5, called: [], tenant_id: "t" }),
        ];
        expect((await postBatch(app.baseUrl, key, batch)).status).toBe(200);
      } finally {
        await app.stop();
      }
      const joined = await client.query(
        `SELECT iteration, has_outcome, called, harmful_tools FROM ${DECISIONS_WITH_OUTCOMES} d
          WHERE iteration >= 4 ORDER BY iteration`,
      );
      expect(joined.rows).toEqual([
        { iteration: 4, has_outcome: true, called: ["c"], harmful_tools: ["c"] },
        { iteration: 5, has_outcome: true, called: [], harmful_tools: [] },
      ]);
    } finally {
      await client.end();
    }
  });
});
