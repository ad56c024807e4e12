/**
 * Links that carry the dashboard's URL state. A parsed state is written back with its defaults
 * left out, so links stay short and a default is never pinned into a shared URL.
 */
import {
  type OverviewSearch,
  type RunsSearch,
  type RunTraceSearch,
  runIdSchema,
} from "@/lib/schemas/dashboard";

type Value = string | number | boolean | null | undefined;

/** `?a=1&b=x` from `values`, skipping empty values, `false` and values equal to their default. */
export function toSearchString(
  values: Record<string, Value>,
  defaults: Record<string, Value> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === false || value === "") continue;
    if (defaults[key] !== undefined && defaults[key] === value) continue;
    params.set(key, value === true ? "1" : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

const OVERVIEW_DEFAULTS = { range: "24h", split: "tenant", sort: "decisions" } as const;
const RUNS_DEFAULTS = { range: "all", sort: "lastSeen", page: 1, size: 50 } as const;

function rangeValues(state: { range: string; from?: string | undefined; to?: string | undefined }) {
  return state.range === "custom"
    ? { range: state.range, from: state.from, to: state.to }
    : { range: state.range };
}

/** `/` with the given overview state. */
export function overviewHref(state: OverviewSearch, changes: Partial<OverviewSearch> = {}): string {
  const next = { ...state, ...changes };
  return `/${toSearchString(
    {
      ...rangeValues(next),
      tenant: next.tenant,
      role: next.role,
      mode: next.mode,
      split: next.split,
      sort: next.sort,
      dir: next.dir,
      live: next.live,
    },
    OVERVIEW_DEFAULTS,
  )}`;
}

/** `/runs` with the given runs state. Changing anything but the page starts again at page 1. */
export function runsHref(state: RunsSearch, changes: Partial<RunsSearch> = {}): string {
  const next = { ...state, ...changes };
  if (changes.page === undefined) next.page = 1;
  return `/runs${toSearchString(
    {
      ...rangeValues(next),
      tenant: next.tenant,
      role: next.role,
      mode: next.mode,
      q: next.q,
      warnings: next.warnings,
      harmful: next.harmful,
      sort: next.sort,
      dir: next.dir,
      page: next.page,
      size: next.size,
      live: next.live,
    },
    RUNS_DEFAULTS,
  )}`;
}

/** `/runs/<id>?tenant=…` for one run. */
export function runTraceHref(
  tenantId: string,
  runId: string,
  changes: Partial<RunTraceSearch> = {},
): string {
  return `/runs/${encodeURIComponent(runId)}${toSearchString(
    { tenant: tenantId, page: changes.page, issues: changes.issues },
    { page: 1 },
  )}`;
}

/**
 * The run id from the path segment (Next.js hands it over still percent-encoded), or null when
 * no stored run can have it (not valid percent-encoding, empty, too long, or containing NUL).
 */
export function readRunId(segment: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return runIdSchema.safeParse(decoded).success ? decoded : null;
}
