/**
 * The rollup deltas of one ingest transaction, computed in memory from the rows it inserted
 * and the decisions it joined to outcomes. Pure, so the arithmetic is unit-tested apart from
 * the database. Buckets are UTC minutes and hours.
 */
import type { DecisionRow } from "./events";

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
  tools: ToolDelta[];
  runs: RunDelta[];
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export function truncateUtc(ts: Date | string | number, unitMs: number): string {
  const ms = typeof ts === "number" ? ts : new Date(ts).getTime();
  return new Date(Math.floor(ms / unitMs) * unitMs).toISOString();
}

function emptyRollup(
  tenant_id: string,
  role: string,
  mode: string,
  config_version: string,
  bucket: string,
): RollupDelta {
  return {
    tenant_id,
    role,
    mode,
    config_version,
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

export function aggregateDeltas(decisions: DecisionRow[], joined: JoinedDecision[]): Aggregates {
  const minute = new Map<string, RollupDelta>();
  const hour = new Map<string, RollupDelta>();
  const runs = new Map<string, RunDelta>();

  // Bucket strings are computed once per minute: a batch spans few distinct minutes.
  const bucketCache = new Map<number, [string, string]>();
  const bucketsOf = (ts: Date | string): [string, string] => {
    const ms = typeof ts === "string" ? Date.parse(ts) : ts.getTime();
    const minuteIndex = Math.floor(ms / MINUTE_MS);
    let buckets = bucketCache.get(minuteIndex);
    if (!buckets) {
      buckets = [truncateUtc(ms, MINUTE_MS), truncateUtc(ms, HOUR_MS)];
      bucketCache.set(minuteIndex, buckets);
    }
    return buckets;
  };

  const rollupsFor = (d: {
    tenant_id: string;
    role: string;
    mode: string;
    config_version: string;
    ts: Date | string;
  }): RollupDelta[] => {
    const [minuteBucket, hourBucket] = bucketsOf(d.ts);
    const prefix = `${d.tenant_id}\u0000${d.role}\u0000${d.mode}\u0000${d.config_version}\u0000`;
    return [
      getOrCreate(minute, prefix + minuteBucket, () =>
        emptyRollup(d.tenant_id, d.role, d.mode, d.config_version, minuteBucket),
      ),
      getOrCreate(hour, prefix + hourBucket, () =>
        emptyRollup(d.tenant_id, d.role, d.mode, d.config_version, hourBucket),
      ),
    ];
  };

  // Per (tenant, role, mode, hour): the tools of that group, so the hot per-tool lookup is
  // keyed by the bare tool name.
  const toolGroups = new Map<string, Map<string, ToolDelta>>();
  const toolsOf = (d: { tenant_id: string; role: string; mode: string; ts: Date | string }) => {
    const bucket = bucketsOf(d.ts)[1];
    const group = getOrCreate(
      toolGroups,
      `${d.tenant_id}\u0000${d.role}\u0000${d.mode}\u0000${bucket}`,
      () => new Map<string, ToolDelta>(),
    );
    return (tool: string): ToolDelta => {
      let delta = group.get(tool);
      if (delta === undefined) {
        delta = {
          tenant_id: d.tenant_id,
          role: d.role,
          mode: d.mode,
          bucket,
          tool,
          offered: 0,
          selected: 0,
          dropped: 0,
          called: 0,
          harmful_drops: 0,
          dropped_tokens: 0,
        };
        group.set(tool, delta);
      }
      return delta;
    };
  };

  const runFor = (d: {
    tenant_id: string;
    run_id: string;
    ts: Date | string;
    iteration: number;
    role: string;
    mode: string;
  }) => {
    const ts = typeof d.ts === "string" ? d.ts : d.ts.toISOString();
    const run = getOrCreate(runs, `${d.tenant_id}\u0000${d.run_id}`, () => ({
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
  };

  for (const d of decisions) {
    for (const r of rollupsFor(d)) {
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
    const toolFor = toolsOf(d);
    for (const name of new Set(d.offered)) toolFor(name).offered += 1;
    for (const name of new Set(d.selected)) toolFor(name).selected += 1;
    const share = d.dropped.length > 0 ? d.dropped_tokens / d.dropped.length : 0;
    for (const name of d.dropped) {
      const tool = toolFor(name);
      tool.dropped += 1;
      tool.dropped_tokens += share;
    }
    const run = runFor(d);
    run.decisions += 1;
    run.dropped_tokens += d.dropped_tokens;
    run.reinstatements += d.reinstatements;
    run.empty_palette_warnings += d.empty_palette_warnings;
    run.stage_errors += d.stage_errors;
  }

  for (const j of joined) {
    const harmful = j.harmful_tools.length;
    for (const r of rollupsFor(j)) {
      r.outcomes += 1;
      r.harmful_decisions += harmful > 0 ? 1 : 0;
      r.harmful_drops += harmful;
      r.zero_call_outcomes += j.called.length === 0 ? 1 : 0;
    }
    const toolFor = toolsOf(j);
    for (const name of new Set(j.called)) toolFor(name).called += 1;
    for (const name of j.harmful_tools) toolFor(name).harmful_drops += 1;
    runFor(j).harmful_drops += harmful;
  }

  const sortedRuns = [...runs.values()].map((run) => ({
    ...run,
    roles: [...run.roles].sort(),
    modes: [...run.modes].sort(),
  }));
  return {
    minute: [...minute.values()],
    hour: [...hour.values()],
    tools: [...toolGroups.values()].flatMap((group) => [...group.values()]),
    runs: sortedRuns,
  };
}
