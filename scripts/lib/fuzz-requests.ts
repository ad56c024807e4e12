/**
 * Seeded, mutated ingest requests for the fuzz test (tests/integration/fuzz.test.ts) and
 * `npm run fuzz`. Each request starts as a valid batch of one tenant and may have some of its
 * events mutated (types, bounds, huge and negative numbers, extreme timestamps, NUL and lone
 * surrogates, unknown fields, other tenants, duplicates, deep nesting) and the request itself
 * mutated (gzip, encodings, content types, keys, envelope, size).
 *
 * Every event carries what the sender knows about it: `valid` (the product must store it
 * exactly once), `invalid` (it must never be stored) or `either` (a value at or beyond a bound
 * the product may draw in more than one place: whatever it answers, the answer and the stored
 * rows must agree). The same seed gives the same requests.
 */
import { gzipSync } from "node:zlib";
import { stageRecord } from "@/lib/telemetry/events";
import { mulberry32 } from "./bench-events";

export type Expectation = "valid" | "invalid" | "either";

export interface FuzzEvent {
  /** The event id as sent, when it is a string (null for events without one). */
  eventId: string | null;
  expect: Expectation;
  /** What was done to the event, for failure messages. */
  mutation: string;
  /** The event itself (valid events are re-sent from it when their request was refused). */
  value: unknown;
}

export interface FuzzRequest {
  /** Index of the sending tenant (0 or 1) in the tenants given to the generator. */
  tenant: number;
  /** Which key the request carries. */
  key: "own" | "none" | "wrong";
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
  /** The batch's events in order; empty when the envelope itself was broken. */
  events: FuzzEvent[];
  /** What was done to the request as a whole, or "none". */
  mutation: string;
  /** `refused`: the whole request must get a 4xx; `judged`: 200/207 with per-event results. */
  expect: "refused" | "judged" | "either";
}

export interface FuzzOptions {
  seed: number;
  /** The two tenants' ids: events of tenant i are sent with tenant i's key. */
  tenants: readonly [string, string];
  /** The instant valid timestamps are drawn before (default: now). */
  now?: Date;
  /**
   * Requests with a wrong or no API key (default true). Off where the server is shared with
   * other tests: the product throttles an address after a burst of failed keys.
   */
  keyMutations?: boolean;
}

const TOOLS = [
  "search_docs",
  "hydrate_context",
  "create_ticket",
  "update_ticket",
  "lookup_customer",
  "refund_order",
  "run_sql",
  "send_email",
  "escalate_to_human",
  "forecast_demand",
];
const ROLES = ["action", "reasoning", "planner"];
const RUNS_PER_TENANT = 24;
const ITERATIONS = 8;

/** A JSON value spliced into the body as written (for values JSON.stringify cannot produce). */
class RawJson {
  constructor(readonly text: string) {}
}

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
const int = (random: Random, below: number) => Math.floor(random() * below);

/**
 * Serialises `value`, writing each RawJson as its text. Placeholders are strings no generated
 * value contains.
 */
export function stringify(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `@@raw-${raws.length - 1}@@`;
    }
    return item;
  });
  return text.replace(/"@@raw-(\d+)@@"/g, (_, i: string) => raws[Number(i)] as string);
}

const LIMIT_BYTES = 5 * 1024 * 1024;
let bomb: Uint8Array<ArrayBuffer> | null = null;

/** A small gzip body that inflates to 6 MiB (built once). */
function gzipBomb(): Uint8Array<ArrayBuffer> {
  bomb ??= new Uint8Array(gzipSync(`{"batch":[],"pad":"${"p".repeat(6 * 1024 * 1024)}"}`));
  return bomb;
}

/** Gzip data whose CRC does not match its content. */
function corruptGzip(text: string): Uint8Array<ArrayBuffer> {
  const gz = new Uint8Array(gzipSync(text));
  const at = gz.length - 5; // the last byte of the CRC-32 in the trailer
  gz[at] = (gz[at] ?? 0) ^ 0xff;
  return gz;
}

const deepArray = (depth: number) => new RawJson(`${"[".repeat(depth)}${"]".repeat(depth)}`);

type Event = Record<string, unknown>;
interface Mutation {
  name: string;
  expect: Expectation;
  apply(event: Event, ctx: MutationContext): Event;
  /** Only for decisions (they have offered, dropped_tokens, trace …). */
  decisionOnly?: boolean;
  /** Costly to store and sum (a thousand tools): drawn a tenth as often as the others. */
  rare?: boolean;
}
interface MutationContext {
  random: Random;
  now: Date;
  ownTenant: string;
  otherTenant: string;
  freshId(): string;
}

const set =
  (field: string, value: unknown) =>
  (event: Event): Event => ({ ...event, [field]: value });
const unset =
  (field: string) =>
  (event: Event): Event => {
    const { [field]: _dropped, ...rest } = event;
    return rest;
  };
const offsetIso = (instant: Date, minutes: number): string => {
  const local = new Date(instant.getTime() + minutes * 60_000).toISOString().slice(0, 19);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
};
const hoursFrom = (now: Date, hours: number) => new Date(now.getTime() + hours * 3_600_000);

/** Event mutations: each keeps its event's fresh id unless it says otherwise. */
const MUTATIONS: Mutation[] = [
  // Valid, at or near a bound, or in an unusual but allowed form.
  {
    name: "tenant_id of its own tenant",
    expect: "valid",
    apply: (e, c) => ({ ...e, tenant_id: c.ownTenant }),
  },
  {
    name: "timestamp with a +05:30 offset",
    expect: "valid",
    apply: (e) => ({ ...e, timestamp: offsetIso(new Date(String(e.timestamp)), 330) }),
  },
  {
    name: "timestamp with a -11:00 offset",
    expect: "valid",
    apply: (e) => ({ ...e, timestamp: offsetIso(new Date(String(e.timestamp)), -660) }),
  },
  { name: "role with an emoji (surrogate pair)", expect: "valid", apply: set("role", "act🚀ion") },
  { name: "iteration 2^31-1", expect: "valid", apply: set("iteration", 2_147_483_647) },
  {
    name: "event_id of 128 characters",
    expect: "valid",
    apply: (e, c) => ({ ...e, event_id: `${c.freshId()}-`.padEnd(128, "x") }),
  },
  {
    name: "run_id of 200 characters",
    expect: "valid",
    apply: (e) => ({ ...e, run_id: String(e.run_id).padEnd(200, "r") }),
  },
  {
    name: "dropped_tokens written 1E2",
    expect: "valid",
    decisionOnly: true,
    apply: set("dropped_tokens", new RawJson("1E2")),
  },
  {
    name: "1,000 offered tools",
    rare: true,
    expect: "valid",
    decisionOnly: true,
    apply: (e) => {
      const offered = Array.from({ length: 1_000 }, (_, i) => `tool_${i}`);
      return { ...e, offered, selected: offered.slice(0, 3), trace: [] };
    },
  },
  {
    name: "tool name of 200 characters",
    expect: "valid",
    decisionOnly: true,
    apply: (e) => ({ ...e, offered: ["t".repeat(200)], selected: [], trace: [] }),
  },
  {
    name: "64 trace stages",
    expect: "valid",
    decisionOnly: true,
    apply: (e) => ({
      ...e,
      trace: Array.from({ length: 64 }, (_, i) => stageRecord({ stage: `stage_${i}` })),
    }),
  },
  {
    name: "palette_identity with NUL and \\u0001",
    expect: "valid",
    decisionOnly: true,
    apply: set("palette_identity", "search_docs\u0000run_sql\u0001!\\x"),
  },
  {
    name: "optional fields null",
    expect: "valid",
    decisionOnly: true,
    apply: (e) => ({ ...e, model: null, agent: null, config_version: null, intent: null }),
  },
  {
    name: "unknown warning code",
    expect: "valid",
    decisionOnly: true,
    apply: set("warnings", [{ code: "something_new" }]),
  },

  // Either: at a bound the product may draw in more than one place.
  ...[2 ** 31, 2 ** 40, 1e12, 1e15, 2 ** 53 - 1].map(
    (value): Mutation => ({
      name: `dropped_tokens ${value}`,
      expect: "either",
      decisionOnly: true,
      apply: set("dropped_tokens", value),
    }),
  ),
  ...[2, 23, 25, 72].map(
    (hours): Mutation => ({
      name: `timestamp ${hours} h ahead`,
      expect: "either",
      apply: (e, c) => ({ ...e, timestamp: hoursFrom(c.now, hours).toISOString() }),
    }),
  ),
  ...[
    "2000-01-01T00:00:00Z",
    "1999-12-31T23:59:59Z",
    "1970-01-01T00:00:00Z",
    "2026-02-30T00:00:00Z",
  ].map(
    (timestamp): Mutation => ({
      name: `timestamp ${timestamp}`,
      expect: "either",
      apply: set("timestamp", timestamp),
    }),
  ),
  {
    name: "timestamp 400 days ago",
    expect: "either",
    apply: (e, c) => ({ ...e, timestamp: hoursFrom(c.now, -400 * 24).toISOString() }),
  },
  {
    name: "timestamp with nine fractional digits",
    expect: "either",
    apply: (e) => ({ ...e, timestamp: String(e.timestamp).replace(/\.\d+Z$/, ".123456789Z") }),
  },
  {
    name: "dropped_tokens written -0",
    expect: "either",
    decisionOnly: true,
    apply: set("dropped_tokens", new RawJson("-0")),
  },
  {
    name: "selected not a subset of offered",
    expect: "either",
    decisionOnly: true,
    apply: (e) => ({ ...e, selected: ["not_offered"], trace: [] }),
  },

  // Invalid: must be refused per event, never stored, never fail a neighbour.
  ...[
    "0000-01-01T00:00:00Z",
    "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:59:59-01:00",
    "9999-12-31T00:00:00Z",
    "+275760-09-13T00:00:00Z",
    "yesterday",
    "",
    "2026-13-01T00:00:00Z",
    "2026-01-01T00:00:00",
  ].map(
    (timestamp): Mutation => ({
      name: `timestamp "${timestamp}"`,
      expect: "invalid",
      apply: set("timestamp", timestamp),
    }),
  ),
  { name: "timestamp a number", expect: "invalid", apply: set("timestamp", 1_700_000_000_000) },
  ...[-1, 1.5, 2 ** 53, 1e300, 9.3e18].map(
    (value): Mutation => ({
      name: `dropped_tokens ${value}`,
      expect: "invalid",
      decisionOnly: true,
      apply: set("dropped_tokens", value),
    }),
  ),
  {
    name: "dropped_tokens 1e400 (Infinity)",
    expect: "invalid",
    decisionOnly: true,
    apply: set("dropped_tokens", new RawJson("1e400")),
  },
  {
    name: "dropped_tokens a string",
    expect: "invalid",
    decisionOnly: true,
    apply: set("dropped_tokens", "12"),
  },
  {
    name: "dropped_tokens null",
    expect: "invalid",
    decisionOnly: true,
    apply: set("dropped_tokens", null),
  },
  ...[-1, 2 ** 31, 1.5, "0", null].map(
    (value): Mutation => ({
      name: `iteration ${JSON.stringify(value)}`,
      expect: "invalid",
      apply: set("iteration", value),
    }),
  ),
  {
    name: "turn_hop_index -1",
    expect: "invalid",
    decisionOnly: true,
    apply: set("turn_hop_index", -1),
  },
  { name: "mode OBSERVE", expect: "invalid", decisionOnly: true, apply: set("mode", "OBSERVE") },
  { name: "mode a number", expect: "invalid", decisionOnly: true, apply: set("mode", 3) },
  { name: "role empty", expect: "invalid", apply: set("role", "") },
  { name: "role of 201 characters", expect: "invalid", apply: set("role", "r".repeat(201)) },
  { name: "role with NUL", expect: "invalid", apply: set("role", "act\u0000ion") },
  {
    name: "run_id with a lone surrogate",
    expect: "invalid",
    apply: (e) => ({ ...e, run_id: `${e.run_id}\uD800` }),
  },
  {
    name: "run_id with a lone low surrogate",
    expect: "invalid",
    apply: (e) => ({ ...e, run_id: `\uDC00${e.run_id}` }),
  },
  {
    name: "run_id of 201 characters",
    expect: "invalid",
    apply: (e) => ({ ...e, run_id: String(e.run_id).padEnd(201, "r") }),
  },
  {
    name: "event_id of 129 characters",
    expect: "invalid",
    apply: (e, c) => ({ ...e, event_id: `${c.freshId()}-`.padEnd(129, "x") }),
  },
  { name: "event_id empty", expect: "invalid", apply: set("event_id", "") },
  { name: "event_id missing", expect: "invalid", apply: unset("event_id") },
  { name: "event_id a number", expect: "invalid", apply: set("event_id", 42) },
  { name: "type unknown", expect: "invalid", apply: set("type", "tool_choice") },
  { name: "type missing", expect: "invalid", apply: unset("type") },
  {
    name: "unknown top-level field",
    expect: "invalid",
    apply: set("surprise", { nested: [1, 2, 3] }),
  },
  {
    name: "unknown field nested 20,000 deep",
    expect: "invalid",
    apply: set("surprise", deepArray(20_000)),
  },
  {
    name: "__proto__ field",
    expect: "invalid",
    apply: (e) => ({ ...e, ["__proto__"]: { polluted: true } }),
  },
  {
    name: "tenant_id of the other tenant",
    expect: "invalid",
    apply: (e, c) => ({ ...e, tenant_id: c.otherTenant }),
  },
  { name: "tenant_id empty", expect: "invalid", apply: set("tenant_id", "") },
  {
    name: "offered of 1,001 tools",
    rare: true,
    expect: "invalid",
    decisionOnly: true,
    apply: (e) => ({
      ...e,
      offered: Array.from({ length: 1_001 }, (_, i) => `t${i}`),
      selected: [],
      trace: [],
    }),
  },
  {
    name: "offered holding numbers",
    expect: "invalid",
    decisionOnly: true,
    apply: set("offered", [1, 2, 3]),
  },
  {
    name: "offered a string",
    expect: "invalid",
    decisionOnly: true,
    apply: set("offered", "search_docs"),
  },
  {
    name: "offered nested 20,000 deep",
    expect: "invalid",
    decisionOnly: true,
    apply: set("offered", deepArray(20_000)),
  },
  {
    name: "offered name with NUL",
    expect: "invalid",
    decisionOnly: true,
    apply: set("offered", ["search\u0000docs"]),
  },
  {
    name: "tool name of 201 characters",
    expect: "invalid",
    decisionOnly: true,
    apply: set("offered", ["t".repeat(201)]),
  },
  {
    name: "65 trace stages",
    expect: "invalid",
    decisionOnly: true,
    apply: (e) => ({
      ...e,
      trace: Array.from({ length: 65 }, () => (e.trace as unknown[])[0] ?? {}),
    }),
  },
  {
    name: "trace stage with an unknown field",
    expect: "invalid",
    decisionOnly: true,
    apply: (e) => ({ ...e, trace: [{ ...((e.trace as Event[])[0] ?? {}), extra: 1 }] }),
  },
  {
    name: "trace stage action bogus",
    expect: "invalid",
    decisionOnly: true,
    apply: (e) => ({ ...e, trace: [{ ...((e.trace as Event[])[0] ?? {}), action: "bogus" }] }),
  },
  {
    name: "trace detail of 100 kB",
    expect: "invalid",
    decisionOnly: true,
    apply: (e) => ({
      ...e,
      trace: [{ ...((e.trace as Event[])[0] ?? {}), detail: "d".repeat(100_000) }],
    }),
  },
  {
    name: "65 warnings",
    expect: "invalid",
    decisionOnly: true,
    apply: set(
      "warnings",
      Array.from({ length: 65 }, () => ({ code: "empty_palette" })),
    ),
  },
  {
    name: "warning with an unknown field",
    expect: "invalid",
    decisionOnly: true,
    apply: set("warnings", [{ code: "empty_palette", when: "now" }]),
  },
  {
    name: "intent keywords nested deep",
    expect: "invalid",
    decisionOnly: true,
    apply: set("intent", { label: "x", matched_tool_keywords: deepArray(5_000) }),
  },
  {
    name: "called holding null",
    expect: "invalid",
    apply: (e) =>
      e.type === "tool_call_outcome" ? { ...e, called: [null] } : { ...e, selected: [null] },
  },
];

/** Whole events that are not events at all (no id to track). */
const NOT_EVENTS: unknown[] = [null, 42, "tool_routing_decision", [], {}, true];

export class FuzzGenerator {
  private readonly random: Random;
  private readonly now: Date;
  private counter = 0;
  /** Valid events already generated, for duplicates and re-sends. */
  private readonly sentValid: Event[] = [];

  constructor(
    private readonly options: FuzzOptions,
    private readonly tenant: number,
  ) {
    this.random = mulberry32(options.seed * 2 + tenant + 1);
    this.now = options.now ?? new Date();
  }

  private get side(): string {
    return this.tenant === 0 ? "a" : "b";
  }

  private freshId(): string {
    return `fz${this.options.seed}-${this.side}-${this.counter++}`;
  }

  /** A valid decision or outcome with a fresh id, on one of the tenant's runs. */
  private baseEvent(): Event {
    const r = this.random;
    const run = `fz${this.options.seed}-${this.side}-run-${int(r, RUNS_PER_TENANT)}`;
    const timestamp = new Date(this.now.getTime() - int(r, 3 * 3_600_000)).toISOString();
    const role = pick(r, ROLES);
    const iteration = int(r, ITERATIONS);
    if (r() < 0.3) {
      return {
        type: "tool_call_outcome",
        event_id: this.freshId(),
        timestamp,
        run_id: run,
        role,
        iteration,
        called: TOOLS.filter(() => r() < 0.2),
        ...(r() < 0.2 ? { error: "tool failed" } : {}),
      };
    }
    const offered = TOOLS.filter(() => r() < 0.7);
    const selected = offered.filter(() => r() < 0.5);
    const dropped = offered.filter((name) => !selected.includes(name));
    return {
      type: "tool_routing_decision",
      event_id: this.freshId(),
      timestamp,
      run_id: run,
      role,
      mode: r() < 0.5 ? "observe" : "enforce",
      iteration,
      turn_hop_index: int(r, 3),
      offered,
      selected,
      forced_choice: null,
      dropped_tokens: int(r, 5_000),
      trace: [
        {
          stage: "intent",
          action: "select",
          kept: selected,
          dropped,
          added: [],
          reinstated: r() < 0.1 && selected[0] ? [selected[0]] : [],
          forced_choice: null,
          detail: "",
          degraded: false,
        },
      ],
      warnings: r() < 0.1 ? [{ code: "empty_palette", stage: "role_palette" }] : [],
      ...(r() < 0.3 ? { config_version: pick(r, ["v1", "v2"]) } : {}),
    };
  }

  private event(): FuzzEvent {
    const r = this.random;
    const roll = r();
    if (roll < 0.55 || this.sentValid.length === 0) {
      const value = this.baseEvent();
      this.sentValid.push(value);
      return { eventId: value.event_id as string, expect: "valid", mutation: "none", value };
    }
    if (roll < 0.6) {
      // An event sent before, again (a client retry): stored once.
      const value = pick(r, this.sentValid);
      return { eventId: value.event_id as string, expect: "valid", mutation: "sent again", value };
    }
    if (roll < 0.62) {
      // An id sent before with other content: the first stored wins, the other is a duplicate.
      const earlier = pick(r, this.sentValid);
      const value = { ...this.baseEvent(), event_id: earlier.event_id };
      return {
        eventId: value.event_id as string,
        expect: "valid",
        mutation: "id sent before, other content",
        value,
      };
    }
    if (roll < 0.64) {
      // The other tenant's event id pattern: ids are per tenant, so this is a new event here.
      const value = {
        ...this.baseEvent(),
        event_id: `fz${this.options.seed}-${this.tenant === 0 ? "b" : "a"}-${this.counter}`,
      };
      this.sentValid.push(value);
      return {
        eventId: value.event_id as string,
        expect: "valid",
        mutation: "other tenant's event id",
        value,
      };
    }
    if (roll < 0.66) {
      return {
        eventId: null,
        expect: "invalid",
        mutation: "not an event object",
        value: pick(r, NOT_EVENTS),
      };
    }
    const base = this.baseEvent();
    const candidates =
      base.type === "tool_routing_decision" ? MUTATIONS : MUTATIONS.filter((m) => !m.decisionOnly);
    let mutation = pick(r, candidates);
    if (mutation.rare && r() >= 0.1)
      mutation = pick(
        r,
        candidates.filter((m) => !m.rare),
      );
    const value = mutation.apply(base, {
      random: r,
      now: this.now,
      ownTenant: this.options.tenants[this.tenant] as string,
      otherTenant: this.options.tenants[1 - this.tenant] as string,
      freshId: () => this.freshId(),
    });
    if (mutation.expect === "valid") this.sentValid.push(value);
    const id = value.event_id;
    return {
      eventId: typeof id === "string" && id.length > 0 ? id : null,
      expect: mutation.expect,
      mutation: mutation.name,
      value,
    };
  }

  private batch(size: number): FuzzEvent[] {
    const events: FuzzEvent[] = [];
    for (let i = 0; i < size; i++) {
      const event = this.event();
      events.push(event);
      // Now and then the same event twice in one batch.
      if (event.expect === "valid" && this.random() < 0.03)
        events.push({ ...event, mutation: "twice in one batch" });
    }
    return events;
  }

  /** The next request of this tenant. */
  next(): FuzzRequest {
    const r = this.random;
    const roll = r();
    const size = r() < 0.05 ? int(r, 100) + 1 : int(r, 12) + 1;
    let events = this.batch(size);
    const json = (text: string) => new Uint8Array(Buffer.from(text));
    const request = (
      mutation: string,
      expect: FuzzRequest["expect"],
      body: Uint8Array<ArrayBuffer>,
      headers: Record<string, string> = { "Content-Type": "application/json" },
      key: FuzzRequest["key"] = "own",
    ): FuzzRequest => ({ tenant: this.tenant, key, headers, body, events, mutation, expect });
    const envelope = () => stringify({ batch: events.map((e) => e.value) });

    if (roll < 0.8) return request("none", "judged", json(envelope()));
    if (roll < 0.83) {
      return request("gzip", "judged", new Uint8Array(gzipSync(envelope())), {
        "Content-Type": "application/json",
        "Content-Encoding": "gzip",
      });
    }
    if (roll < 0.845) {
      return request("charset parameter", "judged", json(envelope()), {
        "Content-Type": "application/json; charset=utf-8",
      });
    }
    if (roll < 0.855) {
      return request("Content-Encoding identity", "judged", json(envelope()), {
        "Content-Type": "application/json",
        "Content-Encoding": "identity",
      });
    }
    if (roll < 0.86) {
      return request(
        "extra envelope field",
        "either",
        json(stringify({ batch: events.map((e) => e.value), sdk: "x" })),
      );
    }
    if (roll < 0.865) {
      events = [];
      return request("empty batch", "judged", json('{"batch":[]}'));
    }
    if (roll < 0.867) {
      events = Array.from({ length: 1_000 }, () => {
        const value = this.baseEvent();
        this.sentValid.push(value);
        return {
          eventId: value.event_id as string,
          expect: "valid" as const,
          mutation: "none",
          value,
        };
      });
      return request("exactly 1,000 events", "judged", json(envelope()));
    }
    // From here on the request as a whole is broken: nothing of it may be stored.
    const refused = (
      mutation: string,
      body: Uint8Array<ArrayBuffer>,
      headers?: Record<string, string>,
      key?: FuzzRequest["key"],
    ) => request(mutation, "refused", body, headers, key);
    const variants: (() => FuzzRequest)[] = [
      () =>
        refused("Content-Encoding br", json(envelope()), {
          "Content-Type": "application/json",
          "Content-Encoding": "br",
        }),
      () =>
        refused("Content-Encoding deflate", json(envelope()), {
          "Content-Type": "application/json",
          "Content-Encoding": "deflate",
        }),
      () =>
        refused("corrupt gzip", corruptGzip(envelope()), {
          "Content-Type": "application/json",
          "Content-Encoding": "gzip",
        }),
      () =>
        refused("marked gzip, sent plain", json(envelope()), {
          "Content-Type": "application/json",
          "Content-Encoding": "gzip",
        }),
      () => refused("Content-Type text/plain", json(envelope()), { "Content-Type": "text/plain" }),
      () => refused("no Content-Type", json(envelope()), {}),
      () => refused("truncated body", json(envelope().slice(0, -3))),
      () =>
        refused(
          "batch not an array",
          json(stringify({ batch: Object.fromEntries(events.map((e, i) => [i, e.value])) })),
        ),
      () => refused("top-level array", json(stringify(events.map((e) => e.value)))),
      () => refused("not JSON", json("batch=1")),
      () => refused("NUL byte in the body", json(`{"batch":[]}\u0000`)),
      () => request("byte order mark", "either", json(`\uFEFF${envelope()}`)),
      () => request("batch key twice", "either", json(`{"batch":[],${envelope().slice(1)}`)),
    ];
    // Large bodies cost the sender and the server most: a few per thousand requests.
    const heavy: (() => FuzzRequest)[] = [
      () =>
        refused(
          "1,001 events",
          json(stringify({ batch: Array.from({ length: 1_001 }, () => this.baseEvent()) })),
        ),
      () =>
        refused(
          "body over 5 MiB",
          json(`${envelope().slice(0, -1)},"pad":"${"p".repeat(LIMIT_BYTES)}"}`),
        ),
      () =>
        refused("gzip body inflating past 5 MiB", gzipBomb(), {
          "Content-Type": "application/json",
          "Content-Encoding": "gzip",
        }),
    ];
    const kind = r();
    if (kind < 0.03) return pick(r, heavy)();
    // A few failed keys; past the product's burst allowance they are answered 429 (refused too).
    if (kind < 0.1 && this.options.keyMutations !== false) {
      return kind < 0.05
        ? refused("wrong key", json(envelope()), undefined, "wrong")
        : refused("no key", json(envelope()), { "Content-Type": "application/json" }, "none");
    }
    return pick(r, variants)();
  }
}
