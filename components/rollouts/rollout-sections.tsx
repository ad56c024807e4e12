/**
 * The rollouts page's sections. Each is an async server component reading rollups through
 * `lib/db/queries/rollouts`; the (mode, config version) cells they share are read once per
 * request.
 */
import Link from "next/link";
import { cache } from "react";
import { requireScope, type TenantScope } from "@/lib/auth/access";
import { formatCount } from "@/lib/dashboard/format";
import type { Granularity, TimeRange } from "@/lib/dashboard/time-range";
import { rangeChanges, runsHref, runsView } from "@/lib/dashboard/url";
import {
  countUnroutedDecisions,
  listHarmfulDropExamples,
  sumCohortCells,
  sumCohortSeries,
  sumHarmfulDropsByTool,
} from "@/lib/db/queries/rollouts";
import { compareCohorts, sumCohorts } from "@/lib/rollouts/cohorts";
import {
  type ConfigPair,
  type ConfigVersionSummary,
  chooseConfigPair,
  listChangeMarkers,
  listConfigVersions,
} from "@/lib/rollouts/config-versions";
import { prepareCohortSeries } from "@/lib/rollouts/series";
import type { CohortCell } from "@/lib/rollouts/types";
import { rolloutsHref, toolExamplesHref, toolsHref, toolsView } from "@/lib/rollouts/url";
import { decideVerdict } from "@/lib/rollouts/verdict";
import { ROUTING_MODES } from "@/lib/schemas/events";
import type { RolloutsSearch } from "@/lib/schemas/rollouts";
import { FilterForm, SelectField } from "../ui/filter-form";
import { CohortCharts } from "./cohort-charts";
import { ComparisonTable } from "./comparison-table";
import type { ConfigVersionRow } from "./config-version-columns";
import { ConfigVersionsTable } from "./config-versions-table";
import { MarkerList } from "./marker-list";
import { type HarmfulToolLine, VerdictPanel } from "./verdict-panel";

/** Harmful tools listed under the verdict, and example decisions per tool. */
const HARMFUL_TOOLS_SHOWN = 8;
const EXAMPLES_PER_TOOL = 3;

const loadCells = cache(
  (
    scope: TenantScope,
    tenant: string | undefined,
    role: string | undefined,
    fromMs: number,
    toMs: number,
    granularity: Granularity,
  ) =>
    sumCohortCells(
      { scope, tenant, role },
      { from: new Date(fromMs), to: new Date(toMs), granularity },
    ),
);

function cellsOf(search: RolloutsSearch, range: TimeRange, scope: TenantScope) {
  return loadCells(
    scope,
    search.tenant,
    search.role,
    range.from.getTime(),
    range.to.getTime(),
    range.granularity,
  );
}

function describeScope(search: RolloutsSearch): string {
  const tenant = search.tenant ? `tenant ${search.tenant}` : "all tenants";
  const role = search.role ? `role ${search.role}` : "all roles";
  return `${tenant}, ${role}`;
}

export async function VerdictSection({
  search,
  range,
}: {
  search: RolloutsSearch;
  range: TimeRange;
}) {
  const scope = await requireScope(search.tenant);
  const filter = { scope, tenant: search.tenant, role: search.role };
  const [cells, harmful] = await Promise.all([
    cellsOf(search, range, scope),
    sumHarmfulDropsByTool(filter, range, HARMFUL_TOOLS_SHOWN),
  ]);
  const verdict = decideVerdict(
    sumCohorts(cells, (cell) => cell.mode === "observe"),
    search.threshold,
  );
  const examples = await listHarmfulDropExamples(
    { ...filter, mode: "observe" },
    range,
    harmful.map((row) => ({ tool: row.tool, hour: row.lastHarmfulHour })),
    EXAMPLES_PER_TOOL,
  );
  const tools: HarmfulToolLine[] = harmful.map((row) => ({
    ...row,
    examples: examples.filter((example) => example.tool === row.tool),
    moreHref: toolExamplesHref(search, range, row.tool, "observe"),
  }));
  const runs = runsHref(runsView.defaults, {
    tenant: search.tenant,
    role: search.role,
    mode: "observe",
    harmful: true,
  });
  return (
    <VerdictPanel verdict={verdict} scope={describeScope(search)} tools={tools} runsHref={runs} />
  );
}

function EmptyCohortNotice({ labels, counts }: { labels: string[]; counts: number[] }) {
  const empty = labels.filter((_, index) => counts[index] === 0);
  if (empty.length === 0) return null;
  return (
    <p className="panel notice" role="status">
      No {empty.join(" or ")} decisions in this window: there is nothing to compare against.
    </p>
  );
}

/**
 * Rollouts compare routed traffic; decisions in mode `off` (from agents that route nothing,
 * sent as OpenTelemetry spans) are left out. Says so, and where to go instead when they are all
 * there is.
 */
function UnroutedNotice({
  unrouted,
  routed,
  toolsLink,
}: {
  unrouted: number;
  routed: number;
  toolsLink: string;
}) {
  if (unrouted === 0) return null;
  if (routed > 0) {
    return (
      <p className="muted small" data-testid="unrouted-note">
        {formatCount(unrouted)} decisions in mode off (agents that route nothing) are left out of
        these comparisons.
      </p>
    );
  }
  return (
    <p className="panel notice" role="status" data-testid="unrouted-note">
      This window has only mode off traffic ({formatCount(unrouted)} decisions from agents that
      route nothing yet, read from their OpenTelemetry spans), so there is no observe or enforce
      traffic to compare. Route the agent with the selection core in observe mode first (
      <code>routeTurn</code>, <code>routelens.*</code> span attributes); until then,{" "}
      <Link href={toolsLink}>the Tools view</Link> shows what offering every tool costs.
    </p>
  );
}

export async function ModeComparisonSection({
  search,
  range,
  now,
}: {
  search: RolloutsSearch;
  range: TimeRange;
  now: Date;
}) {
  const scope = await requireScope(search.tenant);
  const filter = { scope, tenant: search.tenant, role: search.role };
  const [cells, seriesRows, unrouted] = await Promise.all([
    cellsOf(search, range, scope),
    sumCohortSeries(filter, range, { by: "mode" }),
    countUnroutedDecisions(filter, range),
  ]);
  const observe = sumCohorts(cells, (cell) => cell.mode === "observe");
  const enforce = sumCohorts(cells, (cell) => cell.mode === "enforce");
  const labels = { a: "Observe", b: "Enforce" };
  const prepared = prepareCohortSeries(
    seriesRows,
    { a: { key: "observe", label: labels.a }, b: { key: "enforce", label: labels.b } },
    range,
    now,
    listChangeMarkers(cells, range.granularity),
  );
  return (
    <section className="panel" aria-labelledby="mode-comparison-title">
      <div className="section-head">
        <h2 id="mode-comparison-title">Observe vs enforce</h2>
        <span className="muted small">
          {formatCount(observe.decisions)} observe · {formatCount(enforce.decisions)} enforce
          decisions
        </span>
      </div>
      <UnroutedNotice
        unrouted={unrouted}
        routed={observe.decisions + enforce.decisions}
        toolsLink={toolsHref(toolsView.defaults, {
          ...rangeChanges(search, range),
          tenant: search.tenant,
          role: search.role,
        })}
      />
      <EmptyCohortNotice
        labels={["observe", "enforce"]}
        counts={[observe.decisions, enforce.decisions]}
      />
      <ComparisonTable
        rows={compareCohorts(observe, enforce)}
        labels={labels}
        caption="Every metric for observe (A) and enforce (B) traffic, with the difference B − A"
        testId="mode-comparison"
      />
      <h3 className="small-heading">Over time</h3>
      <CohortCharts prepared={prepared} title="Observe and enforce over time" />
      <MarkerList markers={prepared.markers} />
    </section>
  );
}

/** The versions table's rows: which is before, which after, and links to choose either. */
function configVersionRows(
  versions: ConfigVersionSummary[],
  pair: ConfigPair | null,
  search: RolloutsSearch,
): ConfigVersionRow[] {
  return versions.map((version) => ({
    ...version,
    role:
      version.token === pair?.before.token
        ? ("before" as const)
        : version.token === pair?.after.token
          ? ("after" as const)
          : null,
    beforeHref: rolloutsHref(search, { before: version.token, after: pair?.after.token }),
    afterHref: rolloutsHref(search, { before: pair?.before.token, after: version.token }),
  }));
}

/** Pick the two versions to compare, and the mode to compare them in. */
function ConfigPairForm({
  search,
  versions,
  pair,
}: {
  search: RolloutsSearch;
  versions: ConfigVersionSummary[];
  pair: ConfigPair | null;
}) {
  const versionOptions = versions.map((version) => ({
    value: version.token,
    label: version.label,
  }));
  return (
    <FilterForm
      action="/rollouts"
      label="Config versions to compare"
      hidden={{
        range: search.range,
        from: search.range === "custom" ? search.from : undefined,
        to: search.range === "custom" ? search.to : undefined,
        tenant: search.tenant,
        role: search.role,
        threshold: String(search.threshold),
      }}
    >
      <SelectField
        name="before"
        label="Before (A)"
        value={pair?.before.token}
        options={versionOptions}
      />
      <SelectField
        name="after"
        label="After (B)"
        value={pair?.after.token}
        options={versionOptions}
      />
      <SelectField
        name="compareMode"
        label="Mode"
        value={search.compareMode}
        options={ROUTING_MODES.map((mode) => ({ value: mode, label: mode }))}
        allLabel="All modes"
      />
    </FilterForm>
  );
}

function NoConfigPair({ versions }: { versions: ConfigVersionSummary[] }) {
  return (
    <p className="muted" role="status">
      {versions.length === 0
        ? "No decisions in this window."
        : "Only one config version was seen in this window: there is no change to compare."}
    </p>
  );
}

/** Every metric before and after the change, and both over time. */
async function ConfigPairComparison({
  search,
  range,
  now,
  cells,
  pair,
}: {
  search: RolloutsSearch;
  range: TimeRange;
  now: Date;
  cells: CohortCell[];
  pair: ConfigPair;
}) {
  const inMode = (mode: string) => !search.compareMode || mode === search.compareMode;
  const cohortOf = (configVersion: string) =>
    sumCohorts(cells, (cell) => cell.configVersion === configVersion && inMode(cell.mode));
  const before = cohortOf(pair.before.configVersion);
  const after = cohortOf(pair.after.configVersion);
  const scope = await requireScope(search.tenant);
  const seriesRows = await sumCohortSeries(
    { scope, tenant: search.tenant, role: search.role },
    range,
    {
      by: "config",
      versions: [pair.before.configVersion, pair.after.configVersion],
      mode: search.compareMode,
    },
  );
  const labels = { a: `Before: ${pair.before.label}`, b: `After: ${pair.after.label}` };
  const prepared = prepareCohortSeries(
    seriesRows,
    {
      a: { key: pair.before.configVersion, label: labels.a },
      b: { key: pair.after.configVersion, label: labels.b },
    },
    range,
    now,
    listChangeMarkers(cells, range.granularity),
  );
  return (
    <>
      <EmptyCohortNotice
        labels={[pair.before.label, pair.after.label]}
        counts={[before.decisions, after.decisions]}
      />
      <ComparisonTable
        rows={compareCohorts(before, after)}
        labels={labels}
        caption={`Every metric for config ${pair.before.label} (A) and ${pair.after.label} (B), with the difference B − A`}
        testId="config-comparison"
      />
      <h3 className="small-heading">Over time</h3>
      <CohortCharts prepared={prepared} title="Before and after the config change over time" />
      <MarkerList markers={prepared.markers} />
    </>
  );
}

export async function ConfigComparisonSection({
  search,
  range,
  now,
}: {
  search: RolloutsSearch;
  range: TimeRange;
  now: Date;
}) {
  const cells = await cellsOf(search, range, await requireScope(search.tenant));
  const versions = listConfigVersions(cells);
  const pair = chooseConfigPair(versions, search);
  return (
    <section className="panel" aria-labelledby="config-comparison-title">
      <div className="section-head">
        <h2 id="config-comparison-title">Before vs after a config change</h2>
        <span className="muted small">
          {search.compareMode ? `${search.compareMode} traffic only` : "all modes"}
        </span>
      </div>
      <ConfigVersionsTable rows={configVersionRows(versions, pair, search)} />
      {versions.length >= 2 ? (
        <ConfigPairForm search={search} versions={versions} pair={pair} />
      ) : null}
      {pair ? (
        <ConfigPairComparison search={search} range={range} now={now} cells={cells} pair={pair} />
      ) : (
        <NoConfigPair versions={versions} />
      )}
    </section>
  );
}
