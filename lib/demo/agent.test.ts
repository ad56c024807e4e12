import { beforeAll, describe, expect, it } from "vitest";
import { eventSchema, type ToolCallOutcome, type ToolRoutingDecision } from "@/lib/schemas/events";
import { type DemoRun, DemoTenant } from "./agent";
import { DEMO_PROFILES } from "./profiles";
import { analyticsProfile } from "./profiles/analytics";
import { supportProfile } from "./profiles/support";

const DAY = 86_400_000;
const TO = Date.parse("2026-03-09T00:00:00Z");
const STORY = { from: new Date(TO - 7 * DAY), to: new Date(TO) };

interface Pair {
  decision: ToolRoutingDecision;
  outcome: ToolCallOutcome;
}

function pairsOf(runs: readonly DemoRun[]): Pair[] {
  return runs.flatMap((run) => {
    const pairs: Pair[] = [];
    for (let i = 0; i < run.events.length; i += 2) {
      const decision = run.events[i];
      const outcome = run.events[i + 1];
      if (decision?.type !== "tool_routing_decision" || outcome?.type !== "tool_call_outcome") {
        throw new Error(`run ${run.runId}: events are not decision/outcome pairs`);
      }
      pairs.push({ decision, outcome });
    }
    return pairs;
  });
}

async function simulateMany(tenant: DemoTenant, count: number, from: number, to: number) {
  const runs: DemoRun[] = [];
  for (let i = 0; i < count; i++) {
    runs.push(
      await tenant.simulateRun({ start: from + ((to - from) * i) / count, seed: 1_000 + i }),
    );
  }
  return runs;
}

const harmful = ({ decision, outcome }: Pair) =>
  outcome.called.filter(
    (name) => decision.offered.includes(name) && !decision.selected.includes(name),
  );

describe("DemoTenant.simulateRun", () => {
  const runsByTenant = new Map<string, DemoRun[]>();

  beforeAll(async () => {
    for (const profile of DEMO_PROFILES) {
      const tenant = new DemoTenant(profile, STORY);
      runsByTenant.set(profile.key, await simulateMany(tenant, 250, STORY.from.getTime(), TO));
    }
  });

  const allRuns = () => [...runsByTenant.values()].flat();

  it("produces valid wire events: each decision followed by its outcome", () => {
    const ids = new Set<string>();
    for (const run of allRuns()) {
      expect(run.decisions).toBe(run.events.length / 2);
      for (const event of run.events) {
        expect(eventSchema.safeParse(event).success).toBe(true);
        expect(event.run_id).toBe(run.runId);
        expect(ids.has(event.event_id)).toBe(false);
        ids.add(event.event_id);
      }
      for (const [index, { decision, outcome }] of pairsOf([run]).entries()) {
        expect(decision.iteration).toBe(index);
        expect(outcome).toMatchObject({
          iteration: index,
          role: decision.role,
          run_id: decision.run_id,
        });
        expect(Date.parse(outcome.timestamp)).toBeGreaterThan(Date.parse(decision.timestamp));
        expect(decision.agent).toBeTruthy();
        expect(decision.model).toBeTruthy();
      }
    }
  });

  it("runs have several turns and hops", () => {
    const runs = allRuns();
    const pairs = pairsOf(runs);
    expect(runs.filter((run) => run.decisions >= 4).length).toBeGreaterThan(runs.length / 3);
    expect(pairs.some(({ decision }) => decision.turn_hop_index >= 3)).toBe(true);
    // A new turn starts again at hop 0 after iteration 0.
    expect(
      pairs.some(({ decision }) => decision.iteration > 0 && decision.turn_hop_index === 0),
    ).toBe(true);
  });

  it("is reproducible: the same seed gives the same events", async () => {
    const a = await new DemoTenant(supportProfile, STORY).simulateRun({
      start: TO - DAY,
      seed: 99,
    });
    const b = await new DemoTenant(supportProfile, STORY).simulateRun({
      start: TO - DAY,
      seed: 99,
    });
    const c = await new DemoTenant(supportProfile, STORY).simulateRun({
      start: TO - DAY,
      seed: 100,
    });
    expect(b).toEqual(a);
    expect(c.runId).not.toBe(a.runId);
  });

  it("observe traffic has harmful drops; enforce never calls a tool it was not offered", () => {
    const pairs = pairsOf(allRuns());
    const observe = pairs.filter((p) => p.decision.mode === "observe");
    const enforce = pairs.filter((p) => p.decision.mode === "enforce");
    const harmfulObserve = observe.filter((p) => harmful(p).length > 0).length;
    expect(harmfulObserve / observe.length).toBeGreaterThan(0.01);
    expect(harmfulObserve / observe.length).toBeLessThan(0.25);
    for (const pair of enforce) {
      for (const name of pair.outcome.called) expect(pair.decision.selected).toContain(name);
    }
  });

  it("enforce traffic has zero-call turns where the wanted tool was narrowed away", () => {
    const enforce = pairsOf(allRuns()).filter((p) => p.decision.mode === "enforce");
    expect(enforce.some((p) => p.outcome.called.length === 0)).toBe(true);
  });

  it("observe offers every tool; the selection narrows it", () => {
    for (const { decision } of pairsOf(allRuns())) {
      const profile = DEMO_PROFILES.find((p) => decision.run_id.startsWith(`${p.key}-`));
      expect(decision.offered).toHaveLength(profile?.tools.length ?? -1);
      expect(decision.selected.length).toBeLessThanOrEqual(decision.offered.length);
      expect(decision.trace.map((r) => r.stage)).toEqual([
        "intent_routing",
        "lazy_routing",
        "forced_choice",
        "role_palette",
        "policy",
        "allowlist",
      ]);
    }
    const pairs = pairsOf(allRuns());
    const narrowed = pairs.filter((p) => p.decision.selected.length < p.decision.offered.length);
    expect(narrowed.length / pairs.length).toBeGreaterThan(0.8);
    expect(new Set(pairs.map((p) => p.decision.dropped_tokens)).size).toBeGreaterThan(50);
  });

  it("forced tools are called, and reinstated where a stage dropped them", () => {
    const pairs = pairsOf(allRuns());
    const forced = pairs.filter((p) => p.decision.forced_choice !== null);
    expect(forced.length).toBeGreaterThan(0);
    for (const { decision, outcome } of forced) {
      expect(outcome.called).toEqual([decision.forced_choice]);
      expect(decision.selected).toContain(decision.forced_choice);
    }
    const reinstated = forced.filter((p) =>
      p.decision.warnings.some((w) => w.code === "forced_reinstated"),
    );
    expect(reinstated.length).toBeGreaterThan(0);
    // Some reinstatements are the role palette excluding the forced tool.
    expect(
      reinstated.some((p) =>
        p.decision.trace.some((r) => r.stage === "role_palette" && r.reinstated.length > 0),
      ),
    ).toBe(true);
  });

  it("some palettes come back empty (a resolver answering [])", () => {
    const pairs = pairsOf(allRuns());
    const empty = pairs.filter((p) => p.decision.warnings.some((w) => w.code === "empty_palette"));
    expect(empty.length).toBeGreaterThan(0);
    expect(empty.length / pairs.length).toBeLessThan(0.1);
  });

  it("uses lazy routing for procedures", () => {
    const pairs = pairsOf(runsByTenant.get("analytics") ?? []);
    expect(
      pairs.some((p) =>
        p.decision.trace.some((r) => r.stage === "lazy_routing" && r.action === "select"),
      ),
    ).toBe(true);
  });
});

describe("configuration and mode changes inside the window", () => {
  const tenant = new DemoTenant(supportProfile, STORY);
  const at = (fraction: number) => STORY.from.getTime() + fraction * 7 * DAY;

  it("support changes its configuration once, so config_version changes once", () => {
    const before = tenant.configVersionAt(at(0.2));
    const after = tenant.configVersionAt(at(0.8));
    expect(before).toMatch(/^cfg_[0-9a-f]{16}$/);
    expect(after).not.toBe(before);
    expect(tenant.configVersionAt(at(0.44))).toBe(before);
    expect(tenant.configVersionAt(at(0.46))).toBe(after);
  });

  it("support switches action from observe to enforce", () => {
    expect(tenant.modeAt("action", at(0.6))).toBe("observe");
    expect(tenant.modeAt("action", at(0.7))).toBe("enforce");
    expect(tenant.modeAt("reasoning", at(0.9))).toBe("observe");
  });

  it("events carry the version and mode in force when they happen", async () => {
    const early = pairsOf([await tenant.simulateRun({ start: at(0.1), seed: 5 })]);
    const late = pairsOf([await tenant.simulateRun({ start: at(0.9), seed: 5 })]);
    expect(new Set(early.map((p) => p.decision.config_version))).toEqual(
      new Set([tenant.configVersionAt(at(0.1))]),
    );
    expect(new Set(late.map((p) => p.decision.config_version))).toEqual(
      new Set([tenant.configVersionAt(at(0.9))]),
    );
    const lateAction = late.filter(({ decision }) => decision.role === "action");
    expect(lateAction.length).toBeGreaterThan(0);
    for (const { decision } of lateAction) expect(decision.mode).toBe("enforce");
    const earlyAction = early.filter(({ decision }) => decision.role === "action");
    expect(earlyAction.length).toBeGreaterThan(0);
    for (const { decision } of earlyAction) expect(decision.mode).toBe("observe");
  });

  it("a tenant without changes keeps one version", () => {
    const steady = new DemoTenant(analyticsProfile, STORY);
    expect(steady.configVersionAt(at(0.1))).toBe(steady.configVersionAt(at(0.9)));
    expect(steady.configVersionAt(at(0.1))).toMatch(/^cfg_/);
  });
});
