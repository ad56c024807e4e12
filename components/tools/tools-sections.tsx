/**
 * The tools page's sections: the per-tool table, and the decisions in which one tool was
 * dropped harmfully.
 */
import Link from "next/link";
import { requireScope } from "@/lib/auth/access";
import type { TimeRange } from "@/lib/dashboard/time-range";
import { exportHref, sortLinks } from "@/lib/dashboard/url";
import { listHarmfulDropExamples } from "@/lib/db/queries/rollouts";
import { rollupFilterOf, toHourWindow } from "@/lib/db/queries/rollup";
import { listToolLines } from "@/lib/db/queries/table-lines";
import { listHarmfulDropHours } from "@/lib/db/queries/tools";
import { harmfulDropExampleHref, toolsHref, toolsView } from "@/lib/rollouts/url";
import { EXPORT_ROW_LIMIT } from "@/lib/schemas/dashboard";
import { TOOL_SORT_KEYS, type ToolsSearch } from "@/lib/schemas/tools";
import { DownloadLink } from "../ui/download-link";
import { LocalTime } from "../ui/local-time";
import { ToolsTable } from "./tools-table";

/** Decisions listed per tool: a few from each of the latest hours with a harmful drop. */
const EXAMPLE_HOURS = 4;
const EXAMPLES_PER_HOUR = 5;

export async function ToolsSection({ search, range }: { search: ToolsSearch; range: TimeRange }) {
  const scope = await requireScope(search.tenant);
  const { lines: sorted, dir } = await listToolLines(search, range, scope);
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
