/**
 * Links that carry the dashboard's URL state. Each view is defined once by its path and its
 * URL schema (`defineView`); its links write a state back with the schema's defaults left out,
 * so links stay short and a default is never pinned into a shared URL. Sort headers
 * (`sortLinks`) and CSV downloads (`exportHref`) are built from the same views.
 */
import type { z } from "zod";
import type { Period } from "@/lib/dashboard/time-range";
import {
  overviewSearchSchema,
  type RunExportSearch,
  type RunTraceSearch,
  runExportSearchSchema,
  runIdSchema,
  runsSearchSchema,
  runTraceSearchSchema,
  type SortDirection,
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

/** The URL state of one view: its path, its defaults (from its schema) and its links. */
export interface View<State> {
  path: string;
  /** The state of a URL without parameters. */
  defaults: State;
  /** `?…` for `state` with `changes` applied (empty for the default state). */
  query(state: State, changes?: Partial<State>): string;
  /** The view's path with that query. */
  href(state: State, changes?: Partial<State>): string;
}

/**
 * A view whose URL state `schema` describes. Parameters are written in the schema's order;
 * `from` and `to` only with a custom range. `position` names the parameters that say which page
 * is shown (`page`, or the runs list's `after`, `before` and `last`): a link sets at most one of
 * them and drops the others, so a link that changes anything else goes back to the first page.
 */
export function defineView<Schema extends z.ZodObject>(
  path: string,
  schema: Schema,
  { position = [] }: { position?: readonly (keyof z.infer<Schema> & string)[] } = {},
): View<z.infer<Schema>> {
  type State = z.infer<Schema>;
  // A schema with required fields (a download's) has no default state: nothing is left out.
  const parsed = schema.safeParse({});
  const defaults = (parsed.success ? parsed.data : {}) as State;
  const keys = Object.keys(schema.shape);
  const query = (state: State, changes: Partial<State> = {}): string => {
    const next = { ...state, ...changes } as Record<string, Value>;
    for (const key of position) {
      if ((changes as Record<string, unknown>)[key] === undefined) next[key] = undefined;
    }
    const values: Record<string, Value> = {};
    for (const key of keys) values[key] = next[key];
    if (values.range !== "custom") {
      values.from = undefined;
      values.to = undefined;
    }
    return toSearchString(values, defaults as Record<string, Value>);
  };
  return {
    path,
    defaults,
    query,
    href: (state, changes) => `${path}${query(state, changes)}`,
  };
}

/**
 * The range part of a link from one view to another: the same preset, or a custom range's
 * resolved bounds (so the other view shows exactly the same window).
 */
export function rangeChanges<Range extends string>(
  state: { range: Range },
  window: Period,
): { range: Range; from: string | undefined; to: string | undefined } {
  const custom = state.range === "custom";
  return {
    range: state.range,
    from: custom ? window.from.toISOString() : undefined,
    to: custom ? window.to.toISOString() : undefined,
  };
}

/**
 * The links of a table's sortable headers: each header sorts by its column in that column's
 * default direction; the current column's header turns its direction round.
 */
export function sortLinks<Key extends string>(
  keys: readonly Key[],
  current: { sort: Key; dir: SortDirection },
  hrefFor: (changes: { sort: Key; dir: SortDirection | undefined }) => string,
): Record<Key, string> {
  const links = {} as Record<Key, string>;
  for (const key of keys) {
    const turned = current.dir === "asc" ? "desc" : "asc";
    links[key] = hrefFor({ sort: key, dir: key === current.sort ? turned : undefined });
  }
  return links;
}

/** The CSV downloads (`app/api/export/<name>`). */
export type ExportName = "breakdown" | "runs" | "tools" | "context-tax" | "run" | "backtest";

/** A view's CSV download with the view's state (its filters and order). */
export function exportHref<State>(
  name: ExportName,
  view: View<State>,
  state: State,
  changes?: Partial<State>,
): string {
  return `/api/export/${name}${view.query(state, changes)}`;
}

export const overviewView = defineView("/", overviewSearchSchema);
export const runsView = defineView("/runs", runsSearchSchema, {
  position: ["after", "before", "last"],
});
/** The iterations download of one run (its "view" is the download itself). */
export const runExportView = defineView("/api/export/run", runExportSearchSchema);

/** `/` with the given overview state. */
export const overviewHref = overviewView.href;

/** `/runs` with the given runs state. Changing anything but the page starts again at page 1. */
export const runsHref = runsView.href;

/** The iterations download of one run. */
export function runExportHref(search: RunExportSearch): string {
  return exportHref("run", runExportView, search);
}

const RUN_TRACE_DEFAULTS = runTraceSearchSchema.parse({});

/** `/runs/<id>?tenant=…` for one run. */
export function runTraceHref(
  tenantId: string,
  runId: string,
  changes: Partial<RunTraceSearch> = {},
): string {
  return `/runs/${encodeURIComponent(runId)}${toSearchString(
    { tenant: tenantId, page: changes.page, issues: changes.issues },
    RUN_TRACE_DEFAULTS,
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
