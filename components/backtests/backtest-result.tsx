/**
 * A finished backtest's result: the candidate's verdict, the comparison of the arms, per role,
 * per tool, what could not be replayed and how tokens were estimated. Draws what
 * `lib/backtest/result-view.ts` prepared.
 */

import {
  type ArmLabels,
  armLabels,
  backtestVerdict,
  compareArms,
  describeRoles,
  prepareNotes,
  prepareRoleRows,
  prepareTokenSources,
  prepareToolRows,
} from "@/lib/backtest/result-view";
import type { Backtest, BacktestResult } from "@/lib/backtest/types";
import { backtestExampleHref, backtestExportHref, backtestHref } from "@/lib/backtest/url";
import { formatCount } from "@/lib/dashboard/format";
import { sortLinks } from "@/lib/dashboard/url";
import {
  BACKTEST_TOOL_SORT_DIRECTIONS,
  BACKTEST_TOOL_SORT_KEYS,
  type BacktestSearch,
} from "@/lib/schemas/backtest-pages";
import { EXPORT_ROW_LIMIT, sortDirectionOf } from "@/lib/schemas/dashboard";
import { VerdictCard } from "../rollouts/verdict-panel";
import { DownloadLink } from "../ui/download-link";
import styles from "./backtests.module.css";
import { ComparisonTable, RoleTable, ToolTable } from "./result-tables";

function NotReplayable({ result }: { result: BacktestResult }) {
  const notes = prepareNotes(result.notes);
  return (
    <section className="panel" aria-labelledby="not-replayed-title" data-testid="backtest-notes">
      <h2 id="not-replayed-title">What could not be replayed from the recorded inputs</h2>
      {notes.length === 0 ? (
        <p>
          Nothing: every decision carried what the replay needs (offered tools, role, intent
          verdict, forced choice, hop index and a readable trace), and every one has an outcome.
        </p>
      ) : (
        <ul className={styles.noteList}>
          {notes.map((note) => (
            <li key={note.note} data-note={note.note}>
              {note.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TokenEstimate({ result }: { result: BacktestResult }) {
  const sources = prepareTokenSources(result.toolSizes);
  return (
    <section className="panel" aria-labelledby="tokens-title" data-testid="backtest-tokens">
      <h2 id="tokens-title">How tokens were estimated</h2>
      <p>
        Tokens saved are the estimated tokens of the offered tools a config would not have bound,
        summed per decision. A tool's size is taken from the first of these that knows it:
      </p>
      {sources.length === 0 ? (
        <p className="muted">No tool was offered in the replayed decisions.</p>
      ) : (
        <ul className={styles.noteList}>
          {sources.map((line) => (
            <li key={line.source}>{line.text}</li>
          ))}
        </ul>
      )}
      <p className="muted small">
        These are estimates of the tool definitions' size, not token counts from a model's
        tokenizer: compare configs with them, do not bill with them.
      </p>
    </section>
  );
}

export function BacktestResultSections({
  backtest,
  result,
  search,
}: {
  backtest: Backtest;
  result: BacktestResult;
  search: BacktestSearch;
}) {
  const { id, thresholdPercent } = backtest;
  const labels: ArmLabels = armLabels(result);
  const verdict = backtestVerdict(result.overall.candidate, thresholdPercent);
  const dir = sortDirectionOf(search, BACKTEST_TOOL_SORT_DIRECTIONS);
  const tools = prepareToolRows(
    result,
    (example) => backtestExampleHref(id, example),
    search.sort,
    dir,
  );
  const links = sortLinks(BACKTEST_TOOL_SORT_KEYS, { sort: search.sort, dir }, (changes) =>
    backtestHref(id, { ...search, ...changes }),
  );
  const lost = tools.filter((tool) => tool.candidateHarmful > 0);
  return (
    <>
      <VerdictCard
        verdict={verdict}
        intro={`Verdict on the candidate, replayed over ${formatCount(result.overall.candidate.decisions)} recorded decisions of tenant ${backtest.tenantId}, ${describeRoles(backtest.roles)}`}
      >
        {lost.length > 0 ? (
          <p className="small" data-testid="backtest-lost-tools">
            The candidate would drop tools the model called:{" "}
            {lost.slice(0, 5).map((tool, index) => (
              <span key={tool.tool}>
                {index > 0 ? ", " : null}
                <code className="tool">{tool.tool}</code> ({formatCount(tool.candidateHarmful)})
              </span>
            ))}
            {lost.length > 5 ? ` and ${lost.length - 5} more` : null}. Keep a tool that must stay
            available in the always-include allowlist.
          </p>
        ) : null}
      </VerdictCard>

      <section aria-labelledby="comparison-title">
        <div className="section-head">
          <h2 id="comparison-title">
            Candidate against {labels.baseline ? "recorded and baseline" : "recorded"}
          </h2>
        </div>
        <ComparisonTable rows={compareArms(result.overall)} labels={labels} />
      </section>

      <section aria-labelledby="roles-title">
        <div className="section-head">
          <h2 id="roles-title">Per role</h2>
          <DownloadLink
            href={backtestExportHref(id, "roles")}
            rowLimit={EXPORT_ROW_LIMIT}
            label="Download roles CSV"
          />
        </div>
        <RoleTable rows={prepareRoleRows(result.roles, thresholdPercent)} labels={labels} />
      </section>

      <section aria-labelledby="tools-title">
        <div className="section-head">
          <h2 id="tools-title">Per tool</h2>
          <DownloadLink
            href={backtestExportHref(id, "tools", search)}
            rowLimit={EXPORT_ROW_LIMIT}
            label="Download tools CSV"
          />
        </div>
        <ToolTable
          rows={tools}
          labels={labels}
          sort={{ id: search.sort, desc: dir === "desc" }}
          sortLinks={links}
        />
      </section>

      <NotReplayable result={result} />
      <TokenEstimate result={result} />
    </>
  );
}
