/**
 * Validation equals storage: every value the wire schema accepts is stored and summed, and
 * every value past a bound is refused with a per-event 400 naming the field — never a 5xx.
 * Events are built from values at and just beyond every bound of the schema (lengths, counts,
 * list sizes, the timestamp window), combined at random with a fixed seed, and sent
 * concurrently so they share group-commit transactions.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { TENANT_SCOPED_TABLES } from "@/lib/db/tenant-tables";
import { Random } from "@/lib/demo/random";
import { createApiKey } from "@/lib/keys";
import { LIMITS, PALETTE_IDENTITY_MAX } from "@/lib/schemas/events";
import { decisionEvent, outcomeEvent, stageRecord } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { rollupDifferences } from "../support/rollup-sums";

const baseUrl = inject("baseUrl");
const tenant = `bounds-${Date.now()}`;
let db: pg.Client;
let key: string;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  key = (await createApiKey(tenant)).key;
});

afterAll(async () => {
  // Rows dated back to 2000 would be in the way of other files' retention tests.
  for (const table of TENANT_SCOPED_TABLES) {
    await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenant]);
  }
  await db.query("DELETE FROM tenants WHERE id = $1", [tenant]);
  await db.end();
});

type Event = Record<string, unknown>;

/** One value at or past one bound: where it goes, and whether the schema must accept it. */
interface BoundCase {
  /** Cases of one group edit the same field and are never combined. */
  group: string;
  /** The path the per-event error must name (`batch[i].<path>: ...`). */
  path: string;
  valid: boolean;
  kinds: readonly ("decision" | "outcome")[];
  apply: (event: Event) => void;
}

const BOTH = ["decision", "outcome"] as const;
const DECISION = ["decision"] as const;
const OUTCOME = ["outcome"] as const;

const names = (count: number) => Array.from({ length: count }, (_, i) => `t${i}`);
/** A unique string of exactly `length` characters (for ids, which must not collide). */
const uniqueOfLength = (length: number) => randomUUID().padEnd(length, "x").slice(0, length);
const HOUR_MS = 3_600_000;

function boundCases(): BoundCase[] {
  const cases: BoundCase[] = [];
  const add = (
    group: string,
    path: string,
    kinds: BoundCase["kinds"],
    valid: boolean,
    apply: (event: Event) => void,
  ) => cases.push({ group, path, valid, kinds, apply });

  // Required non-empty strings: at the length limit, one past it, and empty.
  const nonEmpty: [string, number, BoundCase["kinds"], boolean][] = [
    ["event_id", LIMITS.eventId, BOTH, true],
    ["run_id", LIMITS.runId, BOTH, true],
    ["role", LIMITS.label, BOTH, false],
    ["model", LIMITS.label, DECISION, false],
    ["agent", LIMITS.label, DECISION, false],
    ["config_version", LIMITS.label, DECISION, false],
    ["forced_choice", LIMITS.toolName, DECISION, false],
  ];
  for (const [field, max, kinds, unique] of nonEmpty) {
    const value = (length: number) => (unique ? uniqueOfLength(length) : "r".repeat(length));
    add(field, field, kinds, true, (e) => {
      e[field] = value(max);
    });
    add(field, field, kinds, false, (e) => {
      e[field] = value(max + 1);
    });
    add(field, field, kinds, false, (e) => {
      e[field] = "";
    });
  }
  add("error", "error", OUTCOME, true, (e) => {
    e.error = "e".repeat(LIMITS.detail);
  });
  add("error", "error", OUTCOME, false, (e) => {
    e.error = "e".repeat(LIMITS.detail + 1);
  });
  add("palette_identity", "palette_identity", DECISION, true, (e) => {
    e.palette_identity = "p".repeat(PALETTE_IDENTITY_MAX);
  });
  add("palette_identity", "palette_identity", DECISION, false, (e) => {
    e.palette_identity = "p".repeat(PALETTE_IDENTITY_MAX + 1);
  });

  // Tool-name lists: 1,000 names, 1,001, and a name at and past 200 characters.
  const lists: [string, BoundCase["kinds"]][] = [
    ["offered", DECISION],
    ["selected", DECISION],
    ["called", OUTCOME],
  ];
  for (const [field, kinds] of lists) {
    add(field, field, kinds, true, (e) => {
      e[field] = names(LIMITS.toolsPerList);
    });
    add(field, field, kinds, false, (e) => {
      e[field] = names(LIMITS.toolsPerList + 1);
    });
    add(field, field, kinds, true, (e) => {
      e[field] = ["n".repeat(LIMITS.toolName), "t1"];
    });
    add(field, `${field}[0]`, kinds, false, (e) => {
      e[field] = ["n".repeat(LIMITS.toolName + 1), "t1"];
    });
  }

  // The stage trace: 64 stages, 65, and each list of a stage at and past its limits.
  add("trace", "trace", DECISION, true, (e) => {
    e.trace = names(LIMITS.traceStages).map((stage) => stageRecord({ stage }));
  });
  add("trace", "trace", DECISION, false, (e) => {
    e.trace = names(LIMITS.traceStages + 1).map((stage) => stageRecord({ stage }));
  });
  // Every stage reinstating 100 names: 6,400 reinstatements in one decision.
  add("trace", "trace", DECISION, true, (e) => {
    e.trace = names(LIMITS.traceStages).map((stage) =>
      stageRecord({ stage, action: "force", reinstated: names(100) }),
    );
  });
  for (const list of ["kept", "dropped", "added", "reinstated"] as const) {
    add("trace", "trace", DECISION, true, (e) => {
      e.trace = [stageRecord({ stage: "s", [list]: names(LIMITS.toolsPerList) })];
    });
    add("trace", `trace[0].${list}`, DECISION, false, (e) => {
      e.trace = [stageRecord({ stage: "s", [list]: names(LIMITS.toolsPerList + 1) })];
    });
  }
  add("trace", "trace", DECISION, true, (e) => {
    e.trace = [
      stageRecord({
        stage: "s".repeat(LIMITS.label),
        action: "error",
        detail: "d".repeat(LIMITS.detail),
      }),
    ];
  });
  add("trace", "trace[0].stage", DECISION, false, (e) => {
    e.trace = [stageRecord({ stage: "s".repeat(LIMITS.label + 1) })];
  });
  add("trace", "trace[0].detail", DECISION, false, (e) => {
    e.trace = [stageRecord({ stage: "s", detail: "d".repeat(LIMITS.detail + 1) })];
  });

  // Warnings: 64, 65, and their strings at and past their limits.
  add("warnings", "warnings", DECISION, true, (e) => {
    e.warnings = Array.from({ length: LIMITS.warnings }, (_, i) => ({
      code: ["empty_palette", "forced_reinstated", "stage_error"][i % 3],
    }));
  });
  add("warnings", "warnings", DECISION, false, (e) => {
    e.warnings = Array.from({ length: LIMITS.warnings + 1 }, () => ({ code: "empty_palette" }));
  });
  add("warnings", "warnings", DECISION, true, (e) => {
    e.warnings = [
      {
        code: "c".repeat(LIMITS.label),
        stage: "s".repeat(LIMITS.label),
        detail: "d".repeat(LIMITS.detail),
      },
    ];
  });
  add("warnings", "warnings[0].code", DECISION, false, (e) => {
    e.warnings = [{ code: "c".repeat(LIMITS.label + 1) }];
  });
  add("warnings", "warnings[0].detail", DECISION, false, (e) => {
    e.warnings = [{ code: "c", detail: "d".repeat(LIMITS.detail + 1) }];
  });

  add("intent", "intent", DECISION, true, (e) => {
    e.intent = {
      label: "l".repeat(LIMITS.label),
      matched_tool_keywords: names(LIMITS.toolsPerList),
    };
  });
  add("intent", "intent.matched_tool_keywords", DECISION, false, (e) => {
    e.intent = { label: "l", matched_tool_keywords: names(LIMITS.toolsPerList + 1) };
  });
  add("intent", "intent.label", DECISION, false, (e) => {
    e.intent = { label: "l".repeat(LIMITS.label + 1), matched_tool_keywords: [] };
  });

  // Counts: 0, the largest stored value, one past it, negative, fractional.
  const counts: [string, number, BoundCase["kinds"]][] = [
    ["iteration", LIMITS.count, BOTH],
    ["turn_hop_index", LIMITS.count, DECISION],
    ["dropped_tokens", LIMITS.droppedTokens, DECISION],
  ];
  for (const [field, max, kinds] of counts) {
    for (const [value, valid] of [
      [0, true],
      [max, true],
      [max + 1, false],
      [2 ** 53, false],
      [-1, false],
      [1.5, false],
    ] as const) {
      add(field, field, kinds, valid, (e) => {
        e[field] = value;
      });
    }
  }

  // The timestamp window: 2000-01-01T00:00:00Z up to 24 h ahead of the server clock.
  const now = Date.now();
  for (const [value, valid] of [
    ["2000-01-01T00:00:00Z", true],
    ["2000-01-01T01:00:00+01:00", true],
    ["1999-12-31T23:59:59.999Z", false],
    ["2000-01-01T00:59:59+01:00", false],
    ["0000-01-01T00:00:00Z", false],
    ["0001-01-01T00:00:00+01:00", false],
    ["9999-12-31T23:59:59-01:00", false],
    [new Date(now + 23.5 * HOUR_MS).toISOString(), true],
    [new Date(now + 24.5 * HOUR_MS).toISOString(), false],
    [new Date(now - 400 * 24 * HOUR_MS).toISOString(), true],
  ] as const) {
    add("timestamp", "timestamp", BOTH, valid, (e) => {
      e.timestamp = value;
    });
  }
  return cases;
}

interface Generated {
  event: Event;
  valid: boolean;
  paths: string[];
}

/** A fresh valid event with the given cases applied (at most one per group). */
function build(kind: "decision" | "outcome", cases: BoundCase[], runs: string[], random: Random) {
  const run_id = random.pick(runs);
  const event: Event =
    kind === "decision"
      ? decisionEvent({ run_id, iteration: random.int(0, 3), dropped_tokens: random.int(0, 500) })
      : outcomeEvent({ run_id, iteration: random.int(0, 3), called: ["search_docs", "t3"] });
  for (const c of cases) c.apply(event);
  return {
    event,
    valid: cases.every((c) => c.valid),
    paths: cases.filter((c) => !c.valid).map((c) => c.path),
  };
}

function generate(random: Random, count: number): Generated[] {
  const all = boundCases();
  const runs = Array.from({ length: 6 }, () => `bounds-run-${randomUUID()}`);
  const out: Generated[] = [];
  // Each case alone once, then random combinations of one to three cases.
  for (const c of all) out.push(build(c.kinds[0] as "decision" | "outcome", [c], runs, random));
  while (out.length < count) {
    const kind = random.chance(0.7) ? "decision" : "outcome";
    const eligible = all.filter((c) => c.kinds.includes(kind));
    const chosen = new Map<string, BoundCase>();
    const wanted = random.int(1, 3);
    while (chosen.size < wanted) {
      const c = random.pick(eligible);
      if (!chosen.has(c.group)) chosen.set(c.group, c);
    }
    out.push(build(kind, [...chosen.values()], runs, random));
  }
  return out;
}

interface IngestBody {
  successes: { id: string; status: number }[];
  errors: { id: string | null; index: number; status: number; message: string }[];
}

describe("POST /api/ingest: every value the schema accepts is stored and summed", () => {
  it("stores each generated event or refuses it with a 400 naming its field, never a 5xx", async () => {
    const random = new Random(20261130);
    const generated = generate(random, 500);
    const batches: Generated[][] = [];
    for (let i = 0; i < generated.length; i += 10) batches.push(generated.slice(i, i + 10));

    const statuses: number[] = [];
    let expectedStored = 0;
    let expectedRefused = 0;
    // Two requests in flight, so they share group-commit transactions.
    for (let i = 0; i < batches.length; i += 2) {
      const pair = batches.slice(i, i + 2);
      const responses = await Promise.all(
        pair.map((batch) =>
          postBatch(
            baseUrl,
            key,
            batch.map((g) => g.event),
            { gzip: true },
          ),
        ),
      );
      for (const [b, response] of responses.entries()) {
        statuses.push(response.status);
        expect(response.status, await response.clone().text()).toBeLessThan(500);
        const body = (await response.json()) as IngestBody;
        const batch = pair[b] as Generated[];
        const errorsByIndex = new Map(body.errors.map((e) => [e.index, e]));
        const stored = new Set(body.successes.map((s) => s.id));
        for (const [index, g] of batch.entries()) {
          const error = errorsByIndex.get(index);
          if (g.valid) {
            expectedStored += 1;
            expect(error?.message, JSON.stringify(g.event).slice(0, 300)).toBeUndefined();
            expect(stored.has(g.event.event_id as string)).toBe(true);
          } else {
            expectedRefused += 1;
            expect(error?.status, JSON.stringify(g.event).slice(0, 300)).toBe(400);
            for (const path of g.paths) {
              expect(error?.message).toContain(`batch[${index}].${path}:`);
            }
          }
        }
      }
    }
    expect(statuses.every((s) => s === 200 || s === 207)).toBe(true);
    // Both verdicts are exercised in earnest.
    expect(expectedStored).toBeGreaterThan(100);
    expect(expectedRefused).toBeGreaterThan(100);

    const { rows } = await db.query<{ event_id: string }>(
      `SELECT event_id FROM decisions WHERE tenant_id = $1
       UNION ALL SELECT event_id FROM outcomes WHERE tenant_id = $1`,
      [tenant],
    );
    const validIds = generated.filter((g) => g.valid).map((g) => g.event.event_id);
    expect(rows.map((r) => r.event_id).sort()).toEqual([...validIds].sort());
    expect(await rollupDifferences(db, tenant)).toEqual([]);
  });

  it("keeps every sum exact at the largest accepted values", async () => {
    const run_id = `bounds-max-${randomUUID()}`;
    const timestamp = new Date().toISOString();
    const maxed = () =>
      decisionEvent({
        run_id,
        timestamp,
        iteration: LIMITS.count,
        turn_hop_index: LIMITS.count,
        dropped_tokens: LIMITS.droppedTokens,
        offered: names(LIMITS.toolsPerList),
        selected: [],
        trace: names(LIMITS.traceStages).map((stage) =>
          stageRecord({ stage, action: "error", reinstated: names(20) }),
        ),
        warnings: Array.from({ length: LIMITS.warnings }, () => ({ code: "empty_palette" })),
      });
    for (let round = 0; round < 3; round++) {
      const responses = await Promise.all(
        [0, 1].map(() =>
          postBatch(baseUrl, key, Array.from({ length: 50 }, maxed), { gzip: true }),
        ),
      );
      for (const response of responses) expect(response.status).toBe(200);
    }
    const { rows } = await db.query(
      `SELECT decisions::text, dropped_tokens::text, reinstatements::text, stage_errors::text,
              empty_palette_warnings::text, max_iteration
         FROM runs WHERE tenant_id = $1 AND run_id = $2`,
      [tenant, run_id],
    );
    expect(rows).toEqual([
      {
        decisions: "300",
        dropped_tokens: String(300 * LIMITS.droppedTokens),
        reinstatements: String(300 * LIMITS.traceStages * 20),
        stage_errors: String(300 * LIMITS.traceStages),
        empty_palette_warnings: String(300 * LIMITS.warnings),
        max_iteration: LIMITS.count,
      },
    ]);
    expect(await rollupDifferences(db, tenant)).toEqual([]);
  });
});
