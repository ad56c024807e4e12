/**
 * Links that carry the rollouts and tools pages' URL state (defaults left out), and the links
 * from a harmful drop to the decision in its run trace.
 */
import type { TimeRange } from "@/lib/dashboard/time-range";
import { runTraceHref, toSearchString } from "@/lib/dashboard/url";
import { DEFAULT_THRESHOLD_PERCENT, type RolloutsSearch } from "@/lib/schemas/rollouts";
import type { ToolsSearch } from "@/lib/schemas/tools";
import type { HarmfulDropExample } from "./types";

const ROLLOUTS_DEFAULTS = { range: "7d", threshold: DEFAULT_THRESHOLD_PERCENT } as const;
const TOOLS_DEFAULTS = { range: "24h", sort: "harmfulDrops" } as const;

function rangeValues(state: { range: string; from?: string | undefined; to?: string | undefined }) {
  return state.range === "custom"
    ? { range: state.range, from: state.from, to: state.to }
    : { range: state.range };
}

/** `/rollouts` with the given state. */
export function rolloutsHref(state: RolloutsSearch, changes: Partial<RolloutsSearch> = {}): string {
  const next = { ...state, ...changes };
  return `/rollouts${toSearchString(
    {
      ...rangeValues(next),
      tenant: next.tenant,
      role: next.role,
      threshold: next.threshold,
      before: next.before,
      after: next.after,
      cmode: next.cmode,
    },
    ROLLOUTS_DEFAULTS,
  )}`;
}

/** `/tools` with the given state. */
export function toolsHref(state: ToolsSearch, changes: Partial<ToolsSearch> = {}): string {
  const next = { ...state, ...changes };
  return `/tools${toSearchString(
    {
      ...rangeValues(next),
      tenant: next.tenant,
      role: next.role,
      mode: next.mode,
      sort: next.sort,
      dir: next.dir,
      tool: next.tool,
    },
    TOOLS_DEFAULTS,
  )}`;
}

/**
 * The tools page for the same window, tenant and role, showing `tool`'s harmful drops. A custom
 * window is passed on as its resolved instants.
 */
export function toolExamplesHref(
  state: Pick<RolloutsSearch, "range" | "tenant" | "role">,
  window: Pick<TimeRange, "from" | "to">,
  tool: string,
  mode?: "observe" | "enforce",
): string {
  const custom = state.range === "custom";
  return `/tools${toSearchString(
    {
      range: custom ? "custom" : state.range,
      from: custom ? window.from.toISOString() : undefined,
      to: custom ? window.to.toISOString() : undefined,
      tenant: state.tenant,
      role: state.role,
      mode,
      tool,
    },
    TOOLS_DEFAULTS,
  )}#harmful-examples`;
}

/** The decision of a harmful drop in its run trace (the issues-only view, at its iteration). */
export function harmfulDropExampleHref(example: HarmfulDropExample): string {
  return `${runTraceHref(example.tenantId, example.runId, { issues: true })}#iteration-${example.iteration}`;
}
