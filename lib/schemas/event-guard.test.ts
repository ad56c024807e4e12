import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Random } from "@/lib/demo/random";
import { decisionEvent, outcomeEvent, stageRecord } from "@/lib/telemetry/events";
import { deriveCheck, isValidEvent } from "./event-guard";
import {
  eventSchema,
  LIMITS,
  PALETTE_IDENTITY_MAX,
  toolCallOutcomeSchema,
  toolRoutingDecisionSchema,
} from "./events";

const zodAccepts = (value: unknown) => eventSchema.safeParse(value).success;

/** Valid events that between them use every field, optional or not. */
function baseEvents(): unknown[] {
  return [
    decisionEvent(),
    decisionEvent({
      tenant_id: "acme",
      forced_choice: "search_docs",
      trace: [
        stageRecord({ stage: "intent", action: "select", kept: ["search_docs"] }),
        stageRecord({ stage: "forced_choice", action: "force", forced_choice: "search_docs" }),
        stageRecord({ stage: "role_palette", action: "error", degraded: true, detail: "boom" }),
      ],
      warnings: [
        { code: "forced_reinstated", stage: "role_palette", detail: "kept search_docs" },
        { code: "empty_palette" },
      ],
      intent: { label: "lookup", matched_tool_keywords: ["search"] },
      model: "gpt-4.1-mini",
      agent: "support-bot",
      config_version: "cfg-7",
      palette_identity: "search_docs\u0000\u0001!hydrate_context",
      tool_tokens: { search_docs: 42, hydrate_context: 0 },
    }),
    decisionEvent({ intent: null, model: null, agent: null, config_version: null }),
    outcomeEvent(),
    outcomeEvent({ tenant_id: "acme", called: ["search_docs"], error: "timeout" }),
    outcomeEvent({ error: null }),
  ];
}

const times = (n: number, value: unknown) => Array.from({ length: n }, () => value);

/** Values that sit on, or just past, the edge of some rule of the schema. */
const EDGE_VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  -1,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  Number.MAX_SAFE_INTEGER,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  "x",
  "observe",
  "enforce",
  "abstain",
  "force",
  "tool_routing_decision",
  "tool_call_outcome",
  "2026-01-31T12:00:00Z",
  "2026-01-31T12:00:00.123+02:00",
  "2026-01-31T12:00:00",
  "2026-02-30T12:00:00Z",
  // The timestamp window: from 2000-01-01T00:00:00Z to a day ahead of the clock.
  "1999-12-31T23:59:59.999Z",
  "2000-01-01T00:00:00Z",
  "2000-01-01T00:59:59+01:00",
  "2000-01-01T01:00:00+01:00",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+01:00",
  "9999-12-31T23:59:59-01:00",
  new Date(Date.now() + 23 * 3_600_000).toISOString(),
  new Date(Date.now() + 25 * 3_600_000).toISOString(),
  LIMITS.droppedTokens,
  LIMITS.droppedTokens + 1,
  "a".repeat(LIMITS.eventId),
  "a".repeat(LIMITS.eventId + 1),
  "a".repeat(LIMITS.label),
  "a".repeat(LIMITS.label + 1),
  "a".repeat(LIMITS.detail),
  "a".repeat(LIMITS.detail + 1),
  "a".repeat(PALETTE_IDENTITY_MAX + 1),
  "a\u0000b",
  "\u0000",
  "bad \uD800 text",
  "\uDC00x",
  "😀 tool",
  'tab\tand\nnewline \\ "quoted"',
  [],
  ["search_docs"],
  [""],
  [null],
  ["a\u0000"],
  times(LIMITS.toolsPerList, "t"),
  times(LIMITS.toolsPerList + 1, "t"),
  {},
  { code: "empty_palette" },
  { label: "x", matched_tool_keywords: [] },
  stageRecord({ stage: "policy" }),
  times(LIMITS.traceStages + 1, stageRecord({ stage: "s" })),
  times(LIMITS.warnings + 1, { code: "c" }),
  { search_docs: 120 },
  { "": 1 },
  { a: -1 },
  { a: 1.5 },
  { a: "12" },
  { a: LIMITS.toolTokens },
  { a: LIMITS.toolTokens + 1 },
  { ["a".repeat(LIMITS.toolName + 1)]: 1 },
  { "bad \uD800": 1 },
  { "a\u0000": 1 },
  JSON.parse('{"__proto__": -1}'),
  Object.fromEntries(times(LIMITS.toolsPerList + 1, 0).map((n, i) => [`t${i}`, n])),
];

/** A random place in the value: the containing object or array and the key in it. */
function pickSlot(root: unknown, random: Random): { parent: object; key: string | number } | null {
  let parent: unknown = null;
  let key: string | number = "";
  let current = root;
  for (;;) {
    const keys: (string | number)[] =
      Array.isArray(current) && current.length > 0
        ? [...current.keys()]
        : current !== null && typeof current === "object" && !Array.isArray(current)
          ? Object.keys(current)
          : [];
    if (keys.length === 0 || (parent !== null && random.chance(0.35))) break;
    parent = current;
    key = random.pick(keys);
    current = (current as Record<string | number, unknown>)[key];
  }
  return parent === null ? null : { parent: parent as object, key };
}

/** One to three random edits: replace a value, delete a key, add a key, grow an array. */
function mutate(event: unknown, random: Random): unknown {
  const copy = structuredClone(event);
  const edits = random.int(1, 3);
  for (let e = 0; e < edits; e++) {
    const slot = pickSlot(copy, random);
    if (!slot) return random.pick(EDGE_VALUES);
    const target = slot.parent as Record<string | number, unknown>;
    const edit = random.int(0, 9);
    if (edit <= 5) {
      target[slot.key] = structuredClone(random.pick(EDGE_VALUES));
    } else if (edit === 6 && !Array.isArray(target)) {
      delete target[slot.key];
    } else if (edit === 7 && !Array.isArray(target)) {
      const name = random.pick(["extra", "Type", "__proto__", "constructor"]);
      Object.defineProperty(target, name, {
        value: 1,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else if (edit === 8 && Array.isArray(target)) {
      target.push(structuredClone(random.pick([...target, ...EDGE_VALUES])));
    } else if (Array.isArray(target)) {
      target.length = random.int(0, target.length);
    } else {
      target[slot.key] = structuredClone(random.pick(EDGE_VALUES));
    }
  }
  return copy;
}

describe("tool_tokens", () => {
  const withTokens = (tool_tokens: unknown) => ({ ...decisionEvent(), tool_tokens });
  const messages = (value: unknown) => {
    const parsed = toolRoutingDecisionSchema.safeParse(withTokens(value));
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };

  it("is optional, and a map of tool names to whole token counts", () => {
    expect(zodAccepts(decisionEvent())).toBe(true);
    expect(messages({})).toEqual([]);
    expect(messages({ search_docs: 120, "😀 tool": 0 })).toEqual([]);
  });

  it("names the entry and the rule", () => {
    expect(messages([1])).toEqual(["tool_tokens: expected an object of tool name → tokens"]);
    expect(messages({ a: -1, b: 1.5, "": 3, c: "7" })).toEqual([
      "tool_tokens.a: must be >= 0",
      "tool_tokens.b: expected integer",
      "tool_tokens.: tool name must not be empty",
      "tool_tokens.c: expected integer",
    ]);
    expect(messages({ "a\u0000": 1 })).toEqual([
      "tool_tokens.a\u0000: tool name must not contain NUL (\\u0000) characters",
    ]);
    // A "__proto__" entry is read like any other.
    expect(messages(JSON.parse('{"__proto__": -1}'))).toEqual([
      "tool_tokens.__proto__: must be >= 0",
    ]);
  });

  it("reports a handful of problems however many entries are wrong, and bounds the map", () => {
    const bad = Object.fromEntries(times(900, -1).map((n, i) => [`t${i}`, n]));
    expect(messages(bad)).toHaveLength(8);
    const big = Object.fromEntries(times(LIMITS.toolsPerList + 1, 1).map((n, i) => [`t${i}`, n]));
    expect(messages(big)).toEqual(["tool_tokens: at most 1000 tools"]);
  });
});

describe("isValidEvent", () => {
  it("accepts the valid events zod accepts", () => {
    for (const event of baseEvents()) {
      expect(zodAccepts(event)).toBe(true);
      expect(isValidEvent(event)).toBe(true);
    }
  });

  it("gives zod's verdict on every edge value in every field", () => {
    let checked = 0;
    for (const event of baseEvents()) {
      const fields = Object.keys(event as object);
      for (const field of [...fields, "unknown_field"]) {
        for (const value of EDGE_VALUES) {
          const candidate = { ...(event as object), [field]: value };
          expect(isValidEvent(candidate), `${field} = ${String(value).slice(0, 40)}`).toBe(
            zodAccepts(candidate),
          );
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(4_000);
  });

  it("gives zod's verdict on 20,000 randomly mutated events", () => {
    const random = new Random(20261129);
    const bases = baseEvents();
    const verdicts = { valid: 0, invalid: 0 };
    for (let i = 0; i < 20_000; i++) {
      const candidate = mutate(random.pick(bases), random);
      const expected = zodAccepts(candidate);
      if (isValidEvent(candidate) !== expected) {
        throw new Error(`verdicts differ (zod: ${expected}) for ${JSON.stringify(candidate)}`);
      }
      verdicts[expected ? "valid" : "invalid"] += 1;
    }
    // Both verdicts are exercised in earnest, not just the easy one.
    expect(verdicts.valid).toBeGreaterThan(1_000);
    expect(verdicts.invalid).toBeGreaterThan(10_000);
    // A generous bound: on a busy shared machine 20,000 zod parses can take longer than 5 s.
  }, 60_000);

  it("checks every field each schema defines, and refuses any other", () => {
    const unacceptable = () => "no schema accepts a function";
    for (const event of baseEvents()) {
      const schema =
        (event as { type: string }).type === "tool_routing_decision"
          ? toolRoutingDecisionSchema
          : toolCallOutcomeSchema;
      for (const field of [...Object.keys(schema.shape), "unknown_field"]) {
        const candidate = { ...(event as object), [field]: unacceptable };
        expect(zodAccepts(candidate), field).toBe(false);
        expect(isValidEvent(candidate), field).toBe(false);
      }
    }
  });

  it("derives its checks from a schema's shape, with zod's verdicts", () => {
    const schema = z.strictObject({
      n: z.number().int().min(2).max(5),
      s: z.string().min(1).max(3).optional(),
      e: z.enum(["a", "b"]).nullable(),
      l: z.literal("x"),
      list: z.array(z.strictObject({ ok: z.boolean() })).max(2),
    });
    const check = deriveCheck(schema);
    const base = { n: 2, s: "abc", e: "a", l: "x", list: [{ ok: true }] };
    const candidates: unknown[] = [
      base,
      { ...base, n: 5 },
      { ...base, n: 6 },
      { ...base, n: 1 },
      { ...base, n: 2.5 },
      { ...base, s: undefined },
      { ...base, s: "" },
      { ...base, s: "abcd" },
      { ...base, e: null },
      { ...base, e: "c" },
      { ...base, l: "y" },
      { ...base, list: [] },
      { ...base, list: [{ ok: true }, { ok: false }, { ok: true }] },
      { ...base, list: [{ ok: 1 }] },
      { ...base, list: [{ ok: true, extra: 1 }] },
      { ...base, extra: 1 },
      (({ n: _n, ...rest }) => rest)(base),
      null,
      [],
    ];
    for (const candidate of candidates) {
      expect(check(candidate), JSON.stringify(candidate)).toBe(schema.safeParse(candidate).success);
    }
  });

  it("refuses to derive a rule it cannot read, naming where", () => {
    expect(() =>
      deriveCheck(z.strictObject({ code: z.string().regex(/^[a-z]+$/) }), "warning"),
    ).toThrow(/warning\.code/);
    expect(() => deriveCheck(z.object({ a: z.string() }), "intent")).toThrow(
      /intent is not a strict object/,
    );
    expect(() => deriveCheck(z.strictObject({ a: z.union([z.string(), z.number()]) }))).toThrow(
      /schema\.a \(zod type "union"\)/,
    );
  });
});
