/**
 * Sums replayed decisions into a backtest result (overall, per role, per tool, notes). Pure.
 * The job keeps one accumulator per backtest, starting from the partial result of its last
 * checkpoint, so a resumed job continues the same sums.
 */
import { sameNames } from "@/lib/text-order";
import type { RecordedDecision, ReplayedArm } from "./replay";
import {
  type ArmSums,
  type ArmsSums,
  BACKTEST_EXAMPLES_PER_TOOL,
  BACKTEST_NOTES,
  type BacktestNote,
  type BacktestNoteCounts,
  type BacktestResult,
  type BacktestToolSums,
  type ToolArmSums,
  type ToolSizeEstimate,
} from "./types";

/** One decision with what each config would have done. */
export interface DecisionReplay {
  decision: RecordedDecision;
  candidate: ReplayedArm;
  baseline: ReplayedArm | null;
  notes: readonly BacktestNote[];
}

export function zeroArmSums(): ArmSums {
  return {
    decisions: 0,
    outcomes: 0,
    harmfulDecisions: 0,
    harmfulDrops: 0,
    boundTools: 0,
    tokensSaved: 0,
    emptyPalettes: 0,
    reinstatements: 0,
    forcedUnavailable: 0,
    stageErrors: 0,
    differFromRecorded: 0,
  };
}

function zeroArms(withBaseline: boolean): ArmsSums {
  return {
    recorded: zeroArmSums(),
    candidate: zeroArmSums(),
    baseline: withBaseline ? zeroArmSums() : null,
  };
}

function zeroNotes(): BacktestNoteCounts {
  return Object.fromEntries(BACKTEST_NOTES.map((note) => [note, 0])) as BacktestNoteCounts;
}

/** What the recorded configuration did: the decision's `selected` and recorded warnings. */
export function recordedArm(decision: RecordedDecision): ReplayedArm {
  return {
    bound: decision.selected,
    emptyPalette: decision.emptyPaletteWarnings > 0,
    reinstated: decision.reinstatements > 0,
    stageError: decision.stageErrors > 0,
    forcedUnavailable: false,
  };
}

/**
 * Sets and de-duplicated copies of name lists, by the list's identity: the job's lists are
 * shared between decisions (the reader keeps one copy of each distinct list, the replayer one
 * answer per distinct input), so each is built once per list rather than once per decision.
 */
class ListViews {
  private readonly sets = new WeakMap<readonly string[], ReadonlySet<string>>();
  private readonly distinct = new WeakMap<readonly string[], readonly string[]>();

  setOf(names: readonly string[]): ReadonlySet<string> {
    let set = this.sets.get(names);
    if (!set) {
      set = new Set(names);
      this.sets.set(names, set);
    }
    return set;
  }

  /** The names once each, in first-seen order. */
  distinctOf(names: readonly string[]): readonly string[] {
    let distinct = this.distinct.get(names);
    if (!distinct) {
      const set = this.setOf(names);
      distinct = set.size === names.length ? names : [...set];
      this.distinct.set(names, distinct);
    }
    return distinct;
  }
}

export interface AccumulatorSetup {
  tenantId: string;
  candidateVersion: string;
  baselineVersion: string | null;
  toolSizes: readonly ToolSizeEstimate[];
}

/** What one arm's bound list means for one decision's lists: the same for the same lists. */
interface ListFacts {
  bound: ReadonlySet<string>;
  harmful: number;
  tokensSaved: number;
  differs: boolean;
}

/** One arm's view of one decision, computed once and added to every set it belongs to. */
interface ArmFacts extends ListFacts {
  arm: ReplayedArm;
}

/** Stands for "no outcome" where a called list is a key. */
const NO_OUTCOME: readonly string[] = [];

/**
 * A map keyed by a path of list identities (and sets), built level by level: what the
 * accumulator uses to compute a decision's facts once per distinct combination of lists.
 */
class IdentityPath<T> {
  private readonly root = new Map<object, unknown>();
  private readonly leaves: T[] = [];

  get size(): number {
    return this.leaves.length;
  }

  values(): readonly T[] {
    return this.leaves;
  }

  get(keys: readonly object[], make: () => T): T {
    let level = this.root;
    const last = keys.length - 1;
    for (let i = 0; i < last; i++) {
      const key = keys[i] as object;
      let next = level.get(key) as Map<object, unknown> | undefined;
      if (!next) {
        next = new Map();
        level.set(key, next);
      }
      level = next;
    }
    const leafKey = keys[last] as object;
    let value = level.get(leafKey) as T | undefined;
    if (value === undefined) {
      value = make();
      level.set(leafKey, value);
      this.leaves.push(value);
    }
    return value;
  }

  clear(): void {
    this.root.clear();
    this.leaves.length = 0;
  }
}

/** Most distinct list combinations remembered for facts; emptied when full. */
const MAX_REMEMBERED_FACTS = 20_000;

/**
 * Decisions that add alike to the per-tool sums, counted until the sums are read: the same
 * offered tools, called tools and bound lists of every arm.
 */
interface ToolShape {
  offered: readonly string[];
  called: ReadonlySet<string> | null;
  recorded: ReadonlySet<string>;
  candidate: ReadonlySet<string>;
  baseline: ReadonlySet<string> | null;
  count: number;
}

export class BacktestAccumulator {
  private readonly setup: AccumulatorSetup;
  private readonly sizes: ReadonlyMap<string, ToolSizeEstimate>;
  private readonly overall: ArmsSums;
  private readonly roles = new Map<string, ArmsSums>();
  private readonly tools = new Map<string, BacktestToolSums>();
  private readonly notes: BacktestNoteCounts;
  private readonly lists = new ListViews();
  private readonly listFacts = new IdentityPath<ListFacts>();
  /** Per-tool additions not yet applied to `tools` (applied by `result`). */
  private readonly shapes = new IdentityPath<ToolShape>();

  /** Starts empty, or from the partial result of a checkpoint. */
  constructor(setup: AccumulatorSetup, from: BacktestResult | null = null) {
    this.setup = setup;
    this.sizes = new Map(setup.toolSizes.map((size) => [size.tool, size]));
    const withBaseline = setup.baselineVersion !== null;
    this.overall = from ? structuredClone(from.overall) : zeroArms(withBaseline);
    this.notes = from ? { ...zeroNotes(), ...from.notes } : zeroNotes();
    if (from) {
      for (const [role, sums] of Object.entries(from.roles)) {
        this.roles.set(role, structuredClone(sums));
      }
      for (const tool of from.tools) this.tools.set(tool.tool, structuredClone(tool));
    }
  }

  add(replay: DecisionReplay): void {
    const { decision } = replay;
    const called = decision.hasOutcome ? this.lists.setOf(decision.called) : null;
    const recorded = this.facts(recordedArm(decision), decision, called);
    const candidate = this.facts(replay.candidate, decision, called);
    const baseline = replay.baseline ? this.facts(replay.baseline, decision, called) : null;

    let role = this.roles.get(decision.role);
    if (!role) {
      role = zeroArms(this.setup.baselineVersion !== null);
      this.roles.set(decision.role, role);
    }
    for (const sums of [this.overall, role]) {
      addArm(sums.recorded, recorded, decision.hasOutcome);
      addArm(sums.candidate, candidate, decision.hasOutcome);
      if (sums.baseline && baseline) addArm(sums.baseline, baseline, decision.hasOutcome);
    }
    this.addTools(decision, called, recorded, candidate, baseline);
    for (const note of replay.notes) this.notes[note] += 1;
  }

  /** Applies the counted tool shapes to the per-tool sums. */
  private applyShapes(): void {
    for (const shape of this.shapes.values()) {
      const { called, count } = shape;
      for (const name of shape.offered) {
        const tool = this.tool(name);
        tool.offered += count;
        const wasCalled = called?.has(name) ?? false;
        if (wasCalled) tool.called += count;
        addToolArm(tool.recorded, shape.recorded, name, wasCalled, count);
        addToolArm(tool.candidate, shape.candidate, name, wasCalled, count);
        if (tool.baseline && shape.baseline) {
          addToolArm(tool.baseline, shape.baseline, name, wasCalled, count);
        }
      }
    }
    this.shapes.clear();
  }

  private tool(name: string): BacktestToolSums {
    let tool = this.tools.get(name);
    if (!tool) {
      tool = {
        tool: name,
        offered: 0,
        called: 0,
        recorded: { bound: 0, harmful: 0 },
        candidate: { bound: 0, harmful: 0 },
        baseline: this.setup.baselineVersion !== null ? { bound: 0, harmful: 0 } : null,
        examples: [],
      };
      this.tools.set(name, tool);
    }
    return tool;
  }

  /**
   * The sums so far, as stored. `toolSizes` holds every estimate the job started with and an
   * `unknown` entry (0 tokens) for each offered tool without one.
   */
  result(): BacktestResult {
    this.applyShapes();
    const unknown: ToolSizeEstimate[] = [];
    for (const tool of this.tools.keys()) {
      if (!this.sizes.has(tool)) unknown.push({ tool, tokens: 0, source: "unknown" });
    }
    const roles: Record<string, ArmsSums> = {};
    for (const role of [...this.roles.keys()].sort())
      roles[role] = this.roles.get(role) as ArmsSums;
    return {
      candidateVersion: this.setup.candidateVersion,
      baselineVersion: this.setup.baselineVersion,
      overall: this.overall,
      roles,
      tools: [...this.tools.values()].sort((a, b) => (a.tool < b.tool ? -1 : 1)),
      notes: this.notes,
      toolSizes: [...this.setup.toolSizes, ...unknown].sort((a, b) => (a.tool < b.tool ? -1 : 1)),
    };
  }

  private facts(
    arm: ReplayedArm,
    decision: RecordedDecision,
    called: ReadonlySet<string> | null,
  ): ArmFacts {
    const { offered, selected } = decision;
    const calledKey = called ? decision.called : NO_OUTCOME;
    if (this.listFacts.size >= MAX_REMEMBERED_FACTS) this.listFacts.clear();
    const facts = this.listFacts.get([offered, selected, arm.bound, calledKey], () => {
      const bound = this.lists.setOf(arm.bound);
      let harmful = 0;
      if (called) {
        for (const name of called) if (!bound.has(name) && offered.includes(name)) harmful++;
      }
      let tokensSaved = 0;
      for (const name of offered) {
        if (!bound.has(name)) tokensSaved += this.sizes.get(name)?.tokens ?? 0;
      }
      return { bound, harmful, tokensSaved, differs: !sameNames(arm.bound, selected) };
    });
    return { arm, ...facts };
  }

  /**
   * Counts the decision's tool shape (applied to the per-tool sums when they are read) and
   * records it as an example for each tool the candidate would have dropped though called.
   */
  private addTools(
    decision: RecordedDecision,
    called: ReadonlySet<string> | null,
    recorded: ArmFacts,
    candidate: ArmFacts,
    baseline: ArmFacts | null,
  ): void {
    const offered = this.lists.distinctOf(decision.offered);
    if (this.shapes.size >= MAX_REMEMBERED_FACTS) this.applyShapes();
    const keys: object[] = [offered, called ?? NO_OUTCOME, recorded.bound, candidate.bound];
    if (baseline) keys.push(baseline.bound);
    const shape = this.shapes.get(keys, () => ({
      offered,
      called,
      recorded: recorded.bound,
      candidate: candidate.bound,
      baseline: baseline?.bound ?? null,
      count: 0,
    }));
    shape.count += 1;
    if (!called || candidate.harmful === 0) return;
    const offeredSet = this.lists.setOf(offered);
    for (const name of called) {
      if (candidate.bound.has(name) || !offeredSet.has(name)) continue;
      const tool = this.tool(name);
      if (tool.examples.length < BACKTEST_EXAMPLES_PER_TOOL) {
        tool.examples.push({
          tenantId: this.setup.tenantId,
          runId: decision.runId,
          iteration: decision.iteration,
          ts: decision.ts.toISOString(),
          role: decision.role,
        });
      }
    }
  }
}

function addArm(sums: ArmSums, facts: ArmFacts, hasOutcome: boolean): void {
  sums.decisions += 1;
  if (hasOutcome) {
    sums.outcomes += 1;
    if (facts.harmful > 0) sums.harmfulDecisions += 1;
    sums.harmfulDrops += facts.harmful;
  }
  sums.boundTools += facts.arm.bound.length;
  sums.tokensSaved += facts.tokensSaved;
  if (facts.arm.emptyPalette) sums.emptyPalettes += 1;
  if (facts.arm.reinstated) sums.reinstatements += 1;
  if (facts.arm.forcedUnavailable) sums.forcedUnavailable += 1;
  if (facts.arm.stageError) sums.stageErrors += 1;
  if (facts.differs) sums.differFromRecorded += 1;
}

/** Adds `count` alike decisions to a tool's arm sums. */
function addToolArm(
  sums: ToolArmSums,
  bound: ReadonlySet<string>,
  name: string,
  called: boolean,
  count: number,
): void {
  if (bound.has(name)) sums.bound += count;
  else if (called) sums.harmful += count;
}
