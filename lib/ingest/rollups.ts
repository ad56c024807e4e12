/**
 * The rollup deltas of one ingest transaction, computed in memory from the rows it inserted
 * and the decisions it joined to outcomes. Pure, so the arithmetic is unit-tested apart from
 * the database. Buckets are UTC minutes and hours, and UTC days for the per-tool totals.
 */
import type { DecisionRow } from "./events";
import { listKey } from "./list-key";

/** A decision that was joined to its outcome in this transaction (as RETURNING gives it). */
export interface JoinedDecision {
  tenant_id: string;
  run_id: string;
  role: string;
  mode: string;
  config_version: string;
  iteration: number;
  ts: Date | string;
  called: string[];
  harmful_tools: string[];
  /** The decision's palettes: which tools were in front of the model (for unused offers). */
  offered: string[];
  selected: string[];
}

/** A decision joined in memory to an outcome that called `called`. */
export function joinedDecision(
  row: DecisionRow,
  called: string[],
  harmful: string[],
): JoinedDecision {
  return {
    tenant_id: row.tenant_id,
    run_id: row.run_id,
    role: row.role,
    mode: row.mode,
    config_version: row.config_version,
    iteration: row.iteration,
    ts: row.ts,
    called,
    harmful_tools: harmful,
    offered: row.offered,
    selected: row.selected,
  };
}

export interface RollupDelta {
  tenant_id: string;
  role: string;
  mode: string;
  config_version: string;
  bucket: string;
  decisions: number;
  dropped_tokens: number;
  dropped_tokens_sq: number;
  offered_tools: number;
  offered_tools_sq: number;
  selected_tools: number;
  selected_tools_sq: number;
  reinstatements: number;
  empty_palette_warnings: number;
  stage_errors: number;
  decisions_reinstated: number;
  decisions_empty_palette: number;
  decisions_stage_error: number;
  outcomes: number;
  harmful_decisions: number;
  harmful_drops: number;
  zero_call_outcomes: number;
}

export interface ToolDelta {
  tenant_id: string;
  role: string;
  mode: string;
  bucket: string;
  tool: string;
  offered: number;
  selected: number;
  dropped: number;
  called: number;
  harmful_drops: number;
  dropped_tokens: number;
  unused_offers: number;
}

export interface RunDelta {
  tenant_id: string;
  run_id: string;
  first_seen: string;
  last_seen: string;
  decisions: number;
  max_iteration: number;
  roles: string[];
  modes: string[];
  dropped_tokens: number;
  reinstatements: number;
  empty_palette_warnings: number;
  stage_errors: number;
  harmful_drops: number;
}

export interface Aggregates {
  minute: RollupDelta[];
  hour: RollupDelta[];
  /** `rollup_day` rows: the hour rows summed per UTC day. */
  day: RollupDelta[];
  /** `tool_rollup_hour` rows. */
  tools: ToolDelta[];
  /** `tool_rollup_day` rows: the same, summed per UTC day. */
  toolDays: ToolDelta[];
  runs: RunDelta[];
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export function truncateUtc(ts: Date | string | number, unitMs: number): string {
  const ms = typeof ts === "number" ? ts : new Date(ts).getTime();
  return new Date(Math.floor(ms / unitMs) * unitMs).toISOString();
}

/** The fields of a decision (as stored, or as joined) that place it in the rollups. */
type RollupKeyed = Pick<JoinedDecision, "tenant_id" | "role" | "mode" | "config_version">;

function emptyRollup(key: RollupKeyed, bucket: string): RollupDelta {
  return {
    tenant_id: key.tenant_id,
    role: key.role,
    mode: key.mode,
    config_version: key.config_version,
    bucket,
    decisions: 0,
    dropped_tokens: 0,
    dropped_tokens_sq: 0,
    offered_tools: 0,
    offered_tools_sq: 0,
    selected_tools: 0,
    selected_tools_sq: 0,
    reinstatements: 0,
    empty_palette_warnings: 0,
    stage_errors: 0,
    decisions_reinstated: 0,
    decisions_empty_palette: 0,
    decisions_stage_error: 0,
    outcomes: 0,
    harmful_decisions: 0,
    harmful_drops: 0,
    zero_call_outcomes: 0,
  };
}

function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** UTC minute and hour buckets of timestamps, computed once per minute (a batch spans few). */
class Buckets {
  private readonly byMinute = new Map<number, [minute: string, hour: string]>();

  of(ts: Date | string): [minute: string, hour: string] {
    const ms = typeof ts === "string" ? Date.parse(ts) : ts.getTime();
    return getOrCreate(this.byMinute, Math.floor(ms / MINUTE_MS), () => [
      truncateUtc(ms, MINUTE_MS),
      truncateUtc(ms, HOUR_MS),
    ]);
  }
}

/** `rollup_minute` or `rollup_hour` rows: one per (tenant, role, mode, config version, bucket). */
class RollupAccumulator {
  private readonly rows = new Map<string, RollupDelta>();

  private row(key: RollupKeyed, bucket: string): RollupDelta {
    const id = `${key.tenant_id}\u0000${key.role}\u0000${key.mode}\u0000${key.config_version}\u0000${bucket}`;
    return getOrCreate(this.rows, id, () => emptyRollup(key, bucket));
  }

  addDecision(d: DecisionRow, bucket: string): void {
    const r = this.row(d, bucket);
    r.decisions += 1;
    r.dropped_tokens += d.dropped_tokens;
    r.dropped_tokens_sq += d.dropped_tokens * d.dropped_tokens;
    r.offered_tools += d.offered_count;
    r.offered_tools_sq += d.offered_count * d.offered_count;
    r.selected_tools += d.selected_count;
    r.selected_tools_sq += d.selected_count * d.selected_count;
    r.reinstatements += d.reinstatements;
    r.empty_palette_warnings += d.empty_palette_warnings;
    r.stage_errors += d.stage_errors;
    r.decisions_reinstated += d.reinstatements > 0 ? 1 : 0;
    r.decisions_empty_palette += d.empty_palette_warnings > 0 ? 1 : 0;
    r.decisions_stage_error += d.stage_errors > 0 ? 1 : 0;
  }

  addOutcome(j: JoinedDecision, bucket: string): void {
    const r = this.row(j, bucket);
    const harmful = j.harmful_tools.length;
    r.outcomes += 1;
    r.harmful_decisions += harmful > 0 ? 1 : 0;
    r.harmful_drops += harmful;
    r.zero_call_outcomes += j.called.length === 0 ? 1 : 0;
  }

  values(): RollupDelta[] {
    return [...this.rows.values()];
  }
}

/**
 * One palette (a tool-name array) within a tool group: its tools' rows, and how many decisions
 * offered it, selected it and had it in front of the model at an outcome, added to each of its
 * tools' rows once at the end.
 */
interface PaletteCounts {
  rows: ToolDelta[];
  names: ReadonlySet<string>;
  offered: number;
  selected: number;
  inFront: number;
}

/** One (tenant, role, mode, hour) group's per-tool rows and palettes. */
interface ToolGroup {
  rows: Map<string, ToolDelta>;
  /** The group's row of a tool, created on first use. */
  tool: (name: string) => ToolDelta;
  /** Palettes by their array (an unrouted agent's decisions share one)… */
  palettes: Map<readonly string[], PaletteCounts>;
  /** …and by `listKey` (a batch read from JSON has an array per decision). */
  lists: Map<string, PaletteCounts>;
}

/** Selected lists up to this long are checked for repeated names in place, without a set. */
const SHORT_LIST = 64;

/**
 * Counts a selected list on its tools' rows directly, each name once. Unlike offered lists,
 * selected ones seldom repeat (routing picks per call), so a palette per list would cost a set
 * and a joined key per decision for nothing.
 */
function countSelected(group: ToolGroup, names: readonly string[]): void {
  if (names.length > SHORT_LIST) {
    for (const name of new Set(names)) group.tool(name).selected += 1;
    return;
  }
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (names.indexOf(name) === i) group.tool(name).selected += 1;
  }
}

/**
 * `tool_rollup_hour` rows: per (tenant, role, mode, hour), the tools of that group, so the hot
 * per-tool lookup is keyed by the bare tool name. A palette array is often shared by many
 * decisions (an unrouted agent sends the same tool list on every LLM call, and its decisions
 * share the array read from it; the decisions of a batch offering one list share its array
 * once `resolvePalettes` has run), so the offered and in-front counts are kept per palette and
 * spread over its tools once in `values()`; so is the selected count of a decision that
 * selected its whole offered array. Other selected lists are counted per tool
 * (`countSelected`).
 */
class ToolAccumulator {
  private readonly groups = new Map<string, ToolGroup>();

  /** The per-tool rows and palettes of one decision's group, created on first use. */
  private groupOf(key: Omit<RollupKeyed, "config_version">, bucket: string): ToolGroup {
    return getOrCreate(
      this.groups,
      `${key.tenant_id}\u0000${key.role}\u0000${key.mode}\u0000${bucket}`,
      () => {
        const rows = new Map<string, ToolDelta>();
        // Written out rather than with getOrCreate: this runs for every tool of every new
        // palette, and a creating closure per call was a large share of ingest's garbage.
        const tool = (name: string): ToolDelta => {
          let row = rows.get(name);
          if (row === undefined) {
            row = {
              tenant_id: key.tenant_id,
              role: key.role,
              mode: key.mode,
              bucket,
              tool: name,
              offered: 0,
              selected: 0,
              dropped: 0,
              called: 0,
              harmful_drops: 0,
              dropped_tokens: 0,
              unused_offers: 0,
            };
            rows.set(name, row);
          }
          return row;
        };
        return { tool, rows, palettes: new Map(), lists: new Map() };
      },
    );
  }

  /**
   * A palette's counts in a group, found by the array or else by its names; its tools' rows
   * are created when it is first seen.
   */
  private palette(group: ToolGroup, names: readonly string[]): PaletteCounts {
    const same = group.palettes.get(names);
    if (same !== undefined) return same;
    const text = listKey(names);
    const equal = group.lists.get(text);
    if (equal !== undefined) return equal;
    const distinct = new Set(names);
    const counts = {
      rows: [...distinct].map(group.tool),
      names: distinct,
      offered: 0,
      selected: 0,
      inFront: 0,
    };
    group.palettes.set(names, counts);
    group.lists.set(text, counts);
    return counts;
  }

  addDecision(d: DecisionRow, hour: string): void {
    const group = this.groupOf(d, hour);
    const offered = this.palette(group, d.offered);
    offered.offered += 1;
    if (d.selected === d.offered) offered.selected += 1;
    else countSelected(group, d.selected);
    // The decision's dropped-token estimate, shared evenly among the tools it dropped.
    const share = d.dropped.length > 0 ? d.dropped_tokens / d.dropped.length : 0;
    for (const name of d.dropped) {
      const delta = group.tool(name);
      delta.dropped += 1;
      delta.dropped_tokens += share;
    }
  }

  addOutcome(j: JoinedDecision, hour: string): void {
    const group = this.groupOf(j, hour);
    const front = this.palette(group, toolsInFront(j));
    // Every tool in front is an unused offer (added in values()) unless it was called.
    front.inFront += 1;
    const called = new Set(j.called);
    for (const name of called) {
      const delta = group.tool(name);
      delta.called += 1;
      if (front.names.has(name)) delta.unused_offers -= 1;
    }
    for (const name of j.harmful_tools) group.tool(name).harmful_drops += 1;
  }

  values(): ToolDelta[] {
    return [...this.groups.values()].flatMap((group) => {
      for (const palette of group.palettes.values()) {
        for (const row of palette.rows) {
          row.offered += palette.offered;
          row.selected += palette.selected;
          row.unused_offers += palette.inFront;
        }
      }
      group.palettes.clear();
      group.lists.clear();
      return [...group.rows.values()];
    });
  }
}

/** The measures of a `rollup_minute`, `rollup_hour` or `rollup_day` row: every field but its key. */
export const ROLLUP_MEASURES = [
  "decisions",
  "dropped_tokens",
  "dropped_tokens_sq",
  "offered_tools",
  "offered_tools_sq",
  "selected_tools",
  "selected_tools_sq",
  "reinstatements",
  "empty_palette_warnings",
  "stage_errors",
  "decisions_reinstated",
  "decisions_empty_palette",
  "decisions_stage_error",
  "outcomes",
  "harmful_decisions",
  "harmful_drops",
  "zero_call_outcomes",
] as const satisfies readonly (keyof RollupDelta)[];

/** Hourly rollup rows summed per (tenant, role, mode, config version, UTC day). */
export function sumRollupDeltasPerDay(hours: readonly RollupDelta[]): RollupDelta[] {
  const days = new Map<string, RollupDelta>();
  for (const hour of hours) {
    const bucket = truncateUtc(hour.bucket, DAY_MS);
    const key = `${hour.tenant_id}\u0000${hour.role}\u0000${hour.mode}\u0000${hour.config_version}\u0000${bucket}`;
    const day = days.get(key);
    if (day === undefined) {
      days.set(key, { ...hour, bucket });
      continue;
    }
    for (const measure of ROLLUP_MEASURES) day[measure] += hour[measure];
  }
  return [...days.values()];
}

/** Hourly per-tool rows summed per (tenant, role, mode, UTC day, tool). */
export function sumToolDeltasPerDay(hours: readonly ToolDelta[]): ToolDelta[] {
  const days = new Map<string, ToolDelta>();
  const dayOf = new Map<string, string>();
  for (const hour of hours) {
    const bucket = getOrCreate(dayOf, hour.bucket, () => truncateUtc(hour.bucket, DAY_MS));
    const key = `${hour.tenant_id}\u0000${hour.role}\u0000${hour.mode}\u0000${bucket}\u0000${hour.tool}`;
    const day = days.get(key);
    if (day === undefined) {
      days.set(key, { ...hour, bucket });
      continue;
    }
    day.offered += hour.offered;
    day.selected += hour.selected;
    day.dropped += hour.dropped;
    day.called += hour.called;
    day.harmful_drops += hour.harmful_drops;
    day.dropped_tokens += hour.dropped_tokens;
    day.unused_offers += hour.unused_offers;
  }
  return [...days.values()];
}

/**
 * The tools the model saw: the selected ones in enforce, the whole offered palette in observe
 * (routing was only computed) and off (nothing was routed).
 */
export function toolsInFront(d: Pick<JoinedDecision, "mode" | "offered" | "selected">): string[] {
  return d.mode === "enforce" ? d.selected : d.offered;
}

/** `runs` rows: one per (tenant, run), with its time span, roles, modes and sums. */
class RunAccumulator {
  private readonly runs = new Map<string, RunDelta>();

  private run(d: DecisionRow | JoinedDecision): RunDelta {
    const ts = typeof d.ts === "string" ? d.ts : d.ts.toISOString();
    const run = getOrCreate(this.runs, `${d.tenant_id}\u0000${d.run_id}`, () => ({
      tenant_id: d.tenant_id,
      run_id: d.run_id,
      first_seen: ts,
      last_seen: ts,
      decisions: 0,
      max_iteration: d.iteration,
      roles: [],
      modes: [],
      dropped_tokens: 0,
      reinstatements: 0,
      empty_palette_warnings: 0,
      stage_errors: 0,
      harmful_drops: 0,
    }));
    if (ts < run.first_seen) run.first_seen = ts;
    if (ts > run.last_seen) run.last_seen = ts;
    run.max_iteration = Math.max(run.max_iteration, d.iteration);
    if (!run.roles.includes(d.role)) run.roles.push(d.role);
    if (!run.modes.includes(d.mode)) run.modes.push(d.mode);
    return run;
  }

  addDecision(d: DecisionRow): void {
    const run = this.run(d);
    run.decisions += 1;
    run.dropped_tokens += d.dropped_tokens;
    run.reinstatements += d.reinstatements;
    run.empty_palette_warnings += d.empty_palette_warnings;
    run.stage_errors += d.stage_errors;
  }

  addOutcome(j: JoinedDecision): void {
    this.run(j).harmful_drops += j.harmful_tools.length;
  }

  /** Roles and modes sorted, as the upsert merges them. */
  values(): RunDelta[] {
    return [...this.runs.values()].map((run) => ({
      ...run,
      roles: [...run.roles].sort(),
      modes: [...run.modes].sort(),
    }));
  }
}

/** The deltas of one transaction: its inserted decisions, and the decisions it joined to outcomes. */
export function aggregateDeltas(decisions: DecisionRow[], joined: JoinedDecision[]): Aggregates {
  const buckets = new Buckets();
  const minute = new RollupAccumulator();
  const hour = new RollupAccumulator();
  const tools = new ToolAccumulator();
  const runs = new RunAccumulator();
  for (const d of decisions) {
    const [minuteBucket, hourBucket] = buckets.of(d.ts);
    minute.addDecision(d, minuteBucket);
    hour.addDecision(d, hourBucket);
    tools.addDecision(d, hourBucket);
    runs.addDecision(d);
  }
  for (const j of joined) {
    const [minuteBucket, hourBucket] = buckets.of(j.ts);
    minute.addOutcome(j, minuteBucket);
    hour.addOutcome(j, hourBucket);
    tools.addOutcome(j, hourBucket);
    runs.addOutcome(j);
  }
  const toolHours = tools.values();
  const hours = hour.values();
  return {
    minute: minute.values(),
    hour: hours,
    day: sumRollupDeltasPerDay(hours),
    tools: toolHours,
    toolDays: sumToolDeltasPerDay(toolHours),
    runs: runs.values(),
  };
}
