import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MigrationError, migrate, readMigrations } from "@/lib/db/migrate";
import { dropDatabase, ensureDatabase } from "@/scripts/lib/local-postgres";
import { compareSchema, describeDatabase, describeSchema } from "../support/schema-drift";

const migratedUrl = inject("databaseUrl");
const TOOL_ROLLUP_DAY = "20261204010000_tool_rollup_day";
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

describe("tool_rollup_day migration", () => {
  it("fills the day rollup with the sums of the hourly rows already stored", async () => {
    const url = await scratchDatabase("tool_day");
    const dir = await mkdtemp(path.join(tmpdir(), "routelens-migrations-"));
    await cp("prisma/migrations", dir, { recursive: true });
    const { rm } = await import("node:fs/promises");
    await rm(path.join(dir, TOOL_ROLLUP_DAY), { recursive: true });
    await migrate(url, { dir });
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
