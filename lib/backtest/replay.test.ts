import { describe, expect, it } from "vitest";
import { compactTrace } from "@/lib/db/stored-trace";
import { DemoTenant } from "@/lib/demo/agent";
import { DEMO_PROFILES } from "@/lib/demo/profiles";
import type { ToolRoutingDecision } from "@/lib/schemas/events";
import { type RoutingConfig, routingConfigToJson, ToolCatalog } from "@/lib/selection";
import { BacktestAccumulator, type DecisionReplay } from "./accumulate";
import { readBacktestConfig } from "./config";
import {
  ConfigReplayer,
  notesFor,
  type RecordedDecision,
  RecordedInputsReader,
  readRecordedInputs,
} from "./replay";

const TOOLS = [
  { name: "hydrate_context", description: "Load the account context.", safetyLevel: "read" },
  { name: "search_orders", description: "Find orders.", safetyLevel: "read", category: "orders" },
  { name: "refund_order", description: "Refund an order.", safetyLevel: "write" },
  { name: "delete_account", description: "Delete an account.", safetyLevel: "destructive" },
  { name: "send_email", description: "Send an email.", safetyLevel: "write" },
] as const;
const OFFERED = TOOLS.map((tool) => tool.name);

let nextId = 1;
function decision(overrides: Partial<RecordedDecision> = {}): RecordedDecision {
  return {
    id: nextId++,
    ts: new Date("2026-11-24T10:00:00Z"),
    runId: "run-1",
    iteration: 0,
    role: "support",
    mode: "observe",
    configVersion: "cfg_recorded",
    turnHopIndex: 0,
    offered: OFFERED,
    selected: OFFERED,
    forcedChoice: null,
    intent: null,
    trace: [],
    hasOutcome: true,
    called: [],
    reinstatements: 0,
    emptyPaletteWarnings: 0,
    stageErrors: 0,
    ...overrides,
  };
}

async function bound(config: RoutingConfig, recorded: RecordedDecision) {
  const replayer = new ConfigReplayer(config);
  return replayer.replay(recorded, readRecordedInputs(recorded));
}

describe("replaying one decision through each stage", () => {
  it("intent routing uses the recorded verdict: matched tools, keyword-free tools, always-include", async () => {
    const config: RoutingConfig = {
      triggerKeywords: {
        refund_order: ["refund"],
        delete_account: ["delete"],
        send_email: ["mail"],
      },
    };
    const action = decision({
      intent: { label: "action", matched_tool_keywords: ["refund_order"] },
    });
    expect((await bound(config, action)).bound).toEqual([
      "hydrate_context",
      "search_orders",
      "refund_order",
    ]);
    const knowledge = decision({ intent: { label: "knowledge", matched_tool_keywords: [] } });
    expect((await bound(config, knowledge)).bound).toEqual(["hydrate_context"]);
    const ambiguous = decision({ intent: { label: "ambiguous", matched_tool_keywords: [] } });
    expect((await bound(config, ambiguous)).bound).toEqual(OFFERED);
    expect((await bound(config, decision())).bound).toEqual(OFFERED);
  });

  it("lazy routing replays the names the recorded trace shows it kept (stored as positions)", async () => {
    const recorded = decision({
      trace: [
        { stage: "intent_routing", action: "abstain" },
        { stage: "lazy_routing", action: "select", kept: [1, 2], dropped: [0, 3, 4] },
      ],
    });
    const inputs = readRecordedInputs(recorded);
    expect(inputs.lazyNames).toEqual(["search_orders", "refund_order"]);
    expect((await bound({ alwaysInclude: [] }, recorded)).bound).toEqual([
      "search_orders",
      "refund_order",
    ]);
    // An abstaining lazy stage in the record: lazy routing abstains in the replay.
    const abstained = decision({ trace: [{ stage: "lazy_routing", action: "abstain" }] });
    expect((await bound({}, abstained)).bound).toEqual(OFFERED);
  });

  it("forced choice comes from the recorded value and is reinstated past a palette", async () => {
    const config: RoutingConfig = { roleTools: { support: ["search_orders"] } };
    const arm = await bound(config, decision({ forcedChoice: "send_email" }));
    expect(arm.bound).toEqual(["hydrate_context", "search_orders", "send_email"]);
    expect(arm.reinstated).toBe(true);
  });

  it("role palette narrows a mapped role, leaves an unmapped one and keeps a recorded empty palette", async () => {
    const config: RoutingConfig = { roleTools: { support: ["search_orders", "refund_order"] } };
    expect((await bound(config, decision())).bound).toEqual([
      "hydrate_context",
      "search_orders",
      "refund_order",
    ]);
    expect((await bound(config, decision({ role: "planner" }))).bound).toEqual(OFFERED);
    const emptyInRecord = decision({
      trace: [{ stage: "role_palette", action: "abstain", degraded: true }],
      emptyPaletteWarnings: 1,
    });
    const arm = await bound(config, emptyInRecord);
    expect(arm.bound).toEqual(OFFERED);
    expect(arm.emptyPalette).toBe(true);
    const replayer = new ConfigReplayer(config);
    expect(notesFor(emptyInRecord, readRecordedInputs(emptyInRecord), replayer)).toContain(
      "recorded-empty-palette",
    );
  });

  it("policy reads the candidate catalogue's metadata onto the replayed tools", async () => {
    const config: RoutingConfig = {
      policy: { maxSafetyLevel: "write" },
      catalog: new ToolCatalog(TOOLS),
    };
    expect((await bound(config, decision())).bound).toEqual(
      OFFERED.filter((name) => name !== "delete_account"),
    );
    // Without a catalogue the offered names carry no metadata: nothing is denied.
    expect((await bound({ policy: { maxSafetyLevel: "write" } }, decision())).bound).toEqual(
      OFFERED,
    );
    const categories: RoutingConfig = {
      policy: { categories: ["orders"] },
      alwaysInclude: [],
      catalog: new ToolCatalog(TOOLS),
    };
    expect((await bound(categories, decision())).bound).toEqual(["search_orders"]);
  });

  it("the allowlist puts back an always-include tool an earlier stage dropped", async () => {
    const config: RoutingConfig = {
      roleTools: { support: ["search_orders"] },
      alwaysInclude: ["send_email"],
    };
    expect((await bound(config, decision())).bound).toEqual(["search_orders", "send_email"]);
  });
});

describe("harmful drops of a designed candidate", () => {
  it("removing a called tool from a role's palette reports exactly the designed drops", async () => {
    const recordedConfig: RoutingConfig = {
      roleTools: { support: ["search_orders", "refund_order", "send_email"] },
    };
    const candidateConfig: RoutingConfig = {
      roleTools: { support: ["search_orders", "refund_order"] },
    };
    const decisions = [
      // Called send_email twice with an outcome: two harmful drops.
      decision({ called: ["send_email"], runId: "run-a", iteration: 2 }),
      decision({ called: ["search_orders", "send_email"], runId: "run-b", iteration: 0 }),
      // Called only kept tools: none.
      decision({ called: ["refund_order"] }),
      // No outcome yet: cannot tell.
      decision({ hasOutcome: false, called: [] }),
      // Another role, unmapped in both: nothing dropped.
      decision({ role: "planner", called: ["send_email"] }),
    ];
    const recordedReplayer = new ConfigReplayer(recordedConfig);
    const candidate = new ConfigReplayer(candidateConfig);
    const accumulator = new BacktestAccumulator({
      tenantId: "acme",
      candidateVersion: candidate.configVersion,
      baselineVersion: recordedReplayer.configVersion,
      toolSizes: OFFERED.map((tool) => ({ tool, tokens: 10, source: "otlp" as const })),
    });
    for (const d of decisions) {
      const inputs = readRecordedInputs(d);
      const baselineArm = await recordedReplayer.replay(d, inputs);
      const replay: DecisionReplay = {
        decision: { ...d, selected: baselineArm.bound },
        candidate: await candidate.replay(d, inputs),
        baseline: baselineArm,
        notes: notesFor(d, inputs, candidate),
      };
      accumulator.add(replay);
    }
    const result = accumulator.result();
    expect(result.overall.candidate).toMatchObject({
      decisions: 5,
      outcomes: 4,
      harmfulDecisions: 2,
      harmfulDrops: 2,
      differFromRecorded: 4,
    });
    expect(result.overall.baseline).toMatchObject({ harmfulDrops: 0, differFromRecorded: 0 });
    expect(result.overall.recorded).toMatchObject({ harmfulDrops: 0, differFromRecorded: 0 });
    expect(result.roles.planner?.candidate.harmfulDrops).toBe(0);
    const sendEmail = result.tools.find((tool) => tool.tool === "send_email");
    expect(sendEmail).toMatchObject({
      offered: 5,
      called: 3,
      candidate: { bound: 1, harmful: 2 },
      baseline: { bound: 5, harmful: 0 },
    });
    expect(sendEmail?.examples.map((e) => [e.runId, e.iteration])).toEqual([
      ["run-a", 2],
      ["run-b", 0],
    ]);
    expect(result.tools.filter((tool) => tool.candidate.harmful > 0).map((t) => t.tool)).toEqual([
      "send_email",
    ]);
    // The candidate binds hydrate_context, search_orders and refund_order on 4 support decisions:
    // two of five tools unbound, 10 tokens each.
    expect(result.overall.candidate.tokensSaved).toBe(4 * 20);
    expect(result.notes["no-outcome"]).toBe(1);
  });
});

/** A recorded decision as the store keeps an ingested event (trace compacted, outcome joined). */
function asRecorded(
  event: ToolRoutingDecision,
  called: readonly string[] | null,
): RecordedDecision {
  const warnings = (code: string) => event.warnings.filter((w) => w.code === code).length;
  return {
    id: nextId++,
    ts: new Date(event.timestamp),
    runId: event.run_id,
    iteration: event.iteration,
    role: event.role,
    mode: event.mode,
    configVersion: event.config_version ?? "",
    turnHopIndex: event.turn_hop_index,
    offered: event.offered,
    selected: event.selected,
    forcedChoice: event.forced_choice,
    intent: event.intent ?? null,
    // As the job's reader hands it over: the stored text, parsed by the replay when needed.
    trace: JSON.stringify(compactTrace(event.trace, event.offered)),
    hasOutcome: called !== null,
    called: called ?? [],
    reinstatements: warnings("forced_reinstated"),
    emptyPaletteWarnings: warnings("empty_palette"),
    stageErrors: warnings("stage_error"),
  };
}

describe("a candidate equal to the recorded config", () => {
  it("reproduces every recorded selection of simulated demo runs", async () => {
    const story = { from: new Date("2026-11-16T00:00:00Z"), to: new Date("2026-11-23T00:00:00Z") };
    let compared = 0;
    let emptyPalettes = 0;
    for (const profile of DEMO_PROFILES) {
      const tenant = new DemoTenant(profile, story);
      const replayers = new Map<string, ConfigReplayer>();
      for (let i = 0; i < 60; i++) {
        const start = story.from.getTime() + i * 2.8 * 3_600_000;
        const run = await tenant.simulateRun({ start, seed: 1_000 + i });
        const outcomes = new Map<number, readonly string[]>();
        for (const event of run.events) {
          if (event.type === "tool_call_outcome") outcomes.set(event.iteration, event.called);
        }
        for (const event of run.events) {
          if (event.type !== "tool_routing_decision") continue;
          const ms = Date.parse(event.timestamp);
          const version = tenant.versionAt(ms);
          const key = tenant.configVersionAt(ms);
          let replayer = replayers.get(key);
          if (!replayer) {
            // Through the JSON form of the recorded config: the static palette, without the
            // workspace-aware resolver (code, which has no JSON form).
            const read = readBacktestConfig(
              routingConfigToJson({ ...version.config, paletteResolver: null }),
            );
            if (!read.ok) throw new Error(read.error);
            replayer = new ConfigReplayer(read.config);
            replayers.set(key, replayer);
          }
          const recorded = asRecorded(event, outcomes.get(event.iteration) ?? null);
          const arm = await replayer.replay(recorded, readRecordedInputs(recorded));
          expect(arm.bound, `${event.run_id} #${event.iteration}`).toEqual(event.selected);
          if (arm.emptyPalette) emptyPalettes++;
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
    // The workspace palettes the static form cannot express were met and kept.
    expect(emptyPalettes).toBeGreaterThan(0);
  });
});

describe("remembering answers for repeated traffic", () => {
  const lazyTrace = JSON.stringify([
    { stage: "lazy_routing", action: "select", kept: [1, 4], dropped: [0, 2, 3] },
  ]);
  const intent = { label: "action", matched_tool_keywords: ["search_orders"] };

  it("reads one recorded input once per trace text, offered list and intent", () => {
    const reader = new RecordedInputsReader();
    const first = reader.read(decision({ trace: lazyTrace, intent }));
    const again = reader.read(decision({ trace: lazyTrace, intent, runId: "run-2" }));
    expect(again).toBe(first);
    expect(first).toEqual(readRecordedInputs(decision({ trace: lazyTrace, intent })));
    expect(first.lazyNames).toEqual(["search_orders", "send_email"]);

    // The same trace text over another offered list names other tools.
    const reordered = [...OFFERED].reverse();
    const other = reader.read(decision({ trace: lazyTrace, intent, offered: reordered }));
    expect(other).not.toBe(first);
    expect(other.lazyNames).toEqual(["delete_account", "hydrate_context"]);

    // Another intent object, or none, is another answer.
    const knowledge = reader.read(
      decision({ trace: lazyTrace, intent: { label: "knowledge", matched_tool_keywords: [] } }),
    );
    expect(knowledge.verdict?.label).toBe("knowledge");
    expect(reader.read(decision({ trace: lazyTrace, intent: null })).verdict).toBeNull();
    // A trace given already parsed is read as it is, every time.
    const parsed = decision({ trace: JSON.parse(lazyTrace), intent });
    expect(reader.read(parsed)).toEqual(first);
  });

  it("answers a repeated input at once with the first answer; new inputs are replayed", async () => {
    const replayer = new ConfigReplayer({ roleTools: { support: ["search_orders"] } });
    const reader = new RecordedInputsReader();
    const first = decision({ trace: lazyTrace, intent });
    const answer = await replayer.replay(first, reader.read(first));
    const repeated = decision({ trace: lazyTrace, intent, iteration: 3 });
    const again = replayer.replay(repeated, reader.read(repeated));
    expect(again).toBe(answer);
    // The support palette leaves search_orders of the lazy names, and the always-include tool.
    expect(answer.bound).toEqual(["hydrate_context", "search_orders"]);

    // The same inputs in another role, or with a forced tool, are replayed on their own.
    const planner = decision({ trace: lazyTrace, intent, role: "planner" });
    expect((await replayer.replay(planner, reader.read(planner))).bound).toEqual([
      "hydrate_context",
      "search_orders",
      "send_email",
    ]);
    const forced = decision({ trace: lazyTrace, intent, forcedChoice: "refund_order" });
    const forcedArm = await replayer.replay(forced, reader.read(forced));
    expect(forcedArm).not.toBe(answer);
    expect(forcedArm.bound).toContain("refund_order");
  });

  it("sums many alike decisions exactly, across its memory's bound and reads mid-way", () => {
    const sizes = OFFERED.map((tool, i) => ({ tool, tokens: i + 1, source: "otlp" as const }));
    const accumulator = new BacktestAccumulator({
      tenantId: "acme",
      candidateVersion: "cfg_c",
      baselineVersion: null,
      toolSizes: sizes,
    });
    // Half the decisions share their lists; the other half bring copies, each a new list to
    // the accumulator's memory (more of them than it keeps).
    const offered = ["search_orders", "refund_order", "send_email"];
    const bound = ["search_orders"];
    const called = ["send_email", "search_orders"];
    const n = 30_000;
    let midway: ReturnType<BacktestAccumulator["result"]> | null = null;
    for (let i = 0; i < n; i++) {
      const shared = i % 2 === 0;
      const d = decision({
        offered: shared ? offered : [...offered],
        selected: shared ? offered : [...offered],
        called: shared ? called : [...called],
        runId: `run-${i}`,
      });
      const arm = {
        bound: shared ? bound : [...bound],
        emptyPalette: false,
        reinstated: false,
        stageError: false,
        forcedUnavailable: false,
      };
      accumulator.add({ decision: d, candidate: arm, baseline: null, notes: [] });
      if (i === n / 2 - 1) midway = accumulator.result();
    }
    expect(midway?.tools.find((t) => t.tool === "send_email")?.candidate.harmful).toBe(n / 2);
    const result = accumulator.result();
    expect(result.overall.candidate).toMatchObject({
      decisions: n,
      harmfulDecisions: n,
      harmfulDrops: n,
      boundTools: n,
      // refund_order (3 tokens) and send_email (5 tokens) dropped from every decision.
      tokensSaved: n * 8,
      differFromRecorded: n,
    });
    expect(result.overall.recorded).toMatchObject({ harmfulDrops: 0, boundTools: 3 * n });
    const tools = Object.fromEntries(result.tools.map((t) => [t.tool, t]));
    expect(tools.search_orders).toMatchObject({
      offered: n,
      called: n,
      candidate: { bound: n, harmful: 0 },
      recorded: { bound: n, harmful: 0 },
    });
    expect(tools.send_email).toMatchObject({
      offered: n,
      called: n,
      candidate: { bound: 0, harmful: n },
      recorded: { bound: n, harmful: 0 },
    });
    expect(tools.refund_order).toMatchObject({ offered: n, called: 0, candidate: { bound: 0 } });
    // The first decisions the candidate would have hurt are the examples, in order.
    expect(tools.send_email?.examples.map((e) => e.runId)).toEqual([
      "run-0",
      "run-1",
      "run-2",
      "run-3",
      "run-4",
    ]);
    expect(tools.search_orders?.examples).toEqual([]);
  });

  it("sums shared lists as it sums copies, counting a tool offered twice once", () => {
    const sizes = OFFERED.map((tool) => ({ tool, tokens: 10, source: "otlp" as const }));
    const setup = { tenantId: "acme", candidateVersion: "cfg_c", baselineVersion: null };
    const shared = new BacktestAccumulator({ ...setup, toolSizes: sizes });
    const copied = new BacktestAccumulator({ ...setup, toolSizes: sizes });
    const offered = [...OFFERED, "search_orders"];
    const bound = ["search_orders", "refund_order"];
    const called = ["send_email", "search_orders"];
    for (let i = 0; i < 3; i++) {
      const arm = {
        bound,
        emptyPalette: false,
        reinstated: false,
        stageError: false,
        forcedUnavailable: false,
      };
      const d = decision({ offered, called, selected: offered });
      shared.add({ decision: d, candidate: arm, baseline: null, notes: [] });
      copied.add({
        decision: { ...d, offered: [...offered], called: [...called], selected: [...offered] },
        candidate: { ...arm, bound: [...bound] },
        baseline: null,
        notes: [],
      });
    }
    expect(shared.result()).toEqual(copied.result());
    const searchOrders = shared.result().tools.find((tool) => tool.tool === "search_orders");
    expect(searchOrders).toMatchObject({ offered: 3, called: 3, candidate: { bound: 3 } });
    expect(shared.result().overall.candidate).toMatchObject({
      harmfulDrops: 3,
      tokensSaved: 3 * 30,
    });
  });
});
