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
