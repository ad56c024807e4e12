/**
 * The tools page's sections: the context tax (what offering each tool costs, and what the
 * offers the model did not use cost), the per-tool table, and the decisions in which one tool
 * was dropped harmfully.
 */
import Link from "next/link";
import { requireScope } from "@/lib/auth/access";
import { formatCount } from "@/lib/dashboard/format";
import type { TimeRange } from "@/lib/dashboard/time-range";
import { exportHref, sortLinks } from "@/lib/dashboard/url";
import { countCallsWithoutTools } from "@/lib/db/queries/context-tax";
import { listHarmfulDropExamples } from "@/lib/db/queries/rollouts";
import { rollupFilterOf, toHourWindow } from "@/lib/db/queries/rollup";
import { DAY_LINES_SHOWN, listContextTaxLines, listToolLines } from "@/lib/db/queries/table-lines";
import { listHarmfulDropHours } from "@/lib/db/queries/tools";
import { harmfulDropExampleHref, toolsHref, toolsView } from "@/lib/rollouts/url";
import { EXPORT_ROW_LIMIT } from "@/lib/schemas/dashboard";
import { TOOL_SORT_KEYS, type ToolsSearch } from "@/lib/schemas/tools";
import {
  describeMissingToolLists,
  describeTaxWindow,
  prepareContextTaxDays,
  summarizeContextTax,
} from "@/lib/tools/context-tax";
import { DownloadLink } from "../ui/download-link";
import { LocalTime } from "../ui/local-time";
import { ContextTaxDaysTable, ContextTaxTable } from "./context-tax-table";
import { ToolsTable } from "./tools-table";

/** Decisions listed per tool: a few from each of the latest hours with a harmful drop. */
const EXAMPLE_HOURS = 4;
const EXAMPLES_PER_HOUR = 5;

/** LLM calls without a tool list: why their offers are missing, and what to change. */
function MissingToolListsHint({ calls }: { calls: number }) {
  const hint = describeMissingToolLists(calls);
  if (!hint) return null;
  return (
    <div className="panel notice" role="status" data-testid="tool-recording-hint">
      <p>
        {hint.lead} (Vercel AI SDK: <code>{hint.setting}</code>).
      </p>
      <p className="small">
        Their offers are not counted above. To record them, let the instrumentation record the
        call's inputs: with the Vercel AI SDK, remove <code>recordInputs: false</code> from{" "}
        <code>experimental_telemetry</code> (inputs are recorded by default); with other
        OpenTelemetry instrumentations, turn on recording of the request's tool definitions (
        <code>gen_ai.tool.definitions</code>).
      </p>
    </div>
  );
}

/**
 * The context tax: the headline (what offering tools the model did not call cost), the hint
 * when calls carried no tool list, the per-tool table with its download, and the totals per
 * day, tenant and role.
 */
export async function ContextTaxSection({
  search,
  range,
}: {
  search: ToolsSearch;
  range: TimeRange;
}) {
  const scope = await requireScope(search.tenant);
  const filter = rollupFilterOf(search, scope);
  const [{ lines, days }, callsWithoutTools] = await Promise.all([
    listContextTaxLines(search, range, scope, { withDays: true }),
    // Calls without a tool list come from agents that route nothing: no routed mode has them.
    search.mode === "observe" || search.mode === "enforce"
      ? Promise.resolve(0)
      : countCallsWithoutTools(filter, range),
  ]);
  const dayRows = days?.rows ?? [];
  const totalDayLines = days?.total ?? 0;
  const summary = summarizeContextTax(lines, describeTaxWindow(range));
  return (
    <section className="panel" aria-labelledby="context-tax-title">
      <div className="section-head">
        <h2 id="context-tax-title">Context tax</h2>
        <DownloadLink
          href={exportHref("context-tax", toolsView, search, { tool: undefined })}
          rowLimit={EXPORT_ROW_LIMIT}
          label="Download context tax CSV"
        />
      </div>
      <p className="headline" data-testid="context-tax-headline">
        {summary.headline}
      </p>
      {summary.detail ? <p className="muted small">{summary.detail}</p> : null}
      <MissingToolListsHint calls={callsWithoutTools} />
      <p className="muted small">
        Token figures are estimates: a tool's definition size (its JSON length / 4) as last seen in
        OpenTelemetry spans, or, marked *, the dropped tokens routed agents recorded for it.
        Never-called tools come first, costliest first.
      </p>
      <ContextTaxTable rows={lines} />
      <h3 className="small-heading">Per day, tenant and role</h3>
      {totalDayLines > DAY_LINES_SHOWN ? (
        <p className="muted small" data-testid="context-tax-day-lines">
          The newest {DAY_LINES_SHOWN} of {formatCount(totalDayLines)} lines; choose a tenant or
          role, or a shorter range, to see the others.
        </p>
      ) : null}
      <ContextTaxDaysTable rows={prepareContextTaxDays(dayRows).slice(0, DAY_LINES_SHOWN)} />
    </section>
  );
}

export async function ToolsSection({ search, range }: { search: ToolsSearch; range: TimeRange }) {
  const scope = await requireScope(search.tenant);
  const { lines: sorted, dir } = await listToolLines(search, range, scope, { withDays: true });
  const lines = sorted.map((line) => ({
    ...line,
    examplesHref: `${toolsHref(search, { tool: line.tool })}#harmful-examples`,
    selectedTool: line.tool === search.tool,
  }));
  return (
    <section className="panel" aria-labelledby="tools-title">
      <div className="section-head">
        <h2 id="tools-title">Tools</h2>
        <DownloadLink
          href={exportHref("tools", toolsView, search, { tool: undefined })}
          rowLimit={EXPORT_ROW_LIMIT}
        />
      </div>
      <ToolsTable
        rows={lines}
        sort={{ id: search.sort, desc: dir === "desc" }}
        sortLinks={sortLinks(TOOL_SORT_KEYS, { sort: search.sort, dir }, (changes) =>
          toolsHref(search, changes),
        )}
      />
    </section>
  );
}

export async function HarmfulExamplesSection({
  search,
  range,
  tool,
}: {
  search: ToolsSearch;
  range: TimeRange;
  tool: string;
}) {
  const filter = rollupFilterOf(search, await requireScope(search.tenant));
  const hourWindow = toHourWindow(range);
  const hours = await listHarmfulDropHours(filter, range, tool, EXAMPLE_HOURS);
  const examples = await listHarmfulDropExamples(
    filter,
    hourWindow,
    hours.map((hour) => ({ tool, hour })),
    EXAMPLES_PER_HOUR,
  );
  return (
    <section className="panel" id="harmful-examples" aria-labelledby="harmful-examples-title">
      <div className="section-head">
        <h2 id="harmful-examples-title">
          Where <code>{tool}</code> was dropped harmfully
        </h2>
        <Link href={toolsHref(search, { tool: undefined })} scroll={false}>
          Close
        </Link>
      </div>
      {examples.length === 0 ? (
        <p className="muted" role="status">
          No harmful drop of this tool in this range: the narrowing never withheld it from a call.
        </p>
      ) : (
        <>
          <p className="muted small">
            The latest decisions in which the model called <code>{tool}</code> although the
            narrowing had dropped it{search.mode ? ` (${search.mode} traffic)` : ""}. Each link
            opens the decision in its run trace.
          </p>
          <ul className="link-list" data-testid="harmful-examples">
            {examples.map((example) => (
              <li key={`${example.tenantId}/${example.runId}/${example.iteration}`}>
                <LocalTime iso={example.ts} />{" "}
                <Link href={harmfulDropExampleHref(example)} prefetch={false}>
                  <span className="mono break">{example.runId}</span> · iteration{" "}
                  {example.iteration}
                </Link>{" "}
                <span className="muted">({example.tenantId})</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
