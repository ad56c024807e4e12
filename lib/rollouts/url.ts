/**
 * The rollouts and tools views (their URL state, defaults from their schemas; see
 * `defineView`), and the links from a harmful drop to the tools page and to the decision in its
 * run trace.
 */
import type { Period } from "@/lib/dashboard/time-range";
import { defineView, rangeChanges, runTraceHref } from "@/lib/dashboard/url";
import type { StoredMode } from "@/lib/schemas/events";
import { type RolloutsSearch, rolloutsSearchSchema } from "@/lib/schemas/rollouts";
import { toolsSearchSchema } from "@/lib/schemas/tools";
import type { HarmfulDropExample } from "./types";

export const rolloutsView = defineView("/rollouts", rolloutsSearchSchema);
export const toolsView = defineView("/tools", toolsSearchSchema);

/** `/rollouts` with the given state. */
export const rolloutsHref = rolloutsView.href;

/** `/tools` with the given state. */
export const toolsHref = toolsView.href;

/**
 * The tools page for the same window, tenant and role, showing `tool`'s harmful drops. A custom
 * window is passed on as its resolved instants.
 */
export function toolExamplesHref(
  state: Pick<RolloutsSearch, "range" | "tenant" | "role">,
  period: Period,
  tool: string,
  mode?: StoredMode,
): string {
  return `${toolsHref(toolsView.defaults, {
    ...rangeChanges(state, period),
    tenant: state.tenant,
    role: state.role,
    mode,
    tool,
  })}#harmful-examples`;
}

/** The decision of a harmful drop in its run trace (the issues-only view, at its iteration). */
export function harmfulDropExampleHref(example: HarmfulDropExample): string {
  return `${runTraceHref(example.tenantId, example.runId, { issues: true })}#iteration-${example.iteration}`;
}
