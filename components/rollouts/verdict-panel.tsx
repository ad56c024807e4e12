import Link from "next/link";
import { formatCount } from "@/lib/dashboard/format";
import type { HarmfulDropExample, ToolHarmRow } from "@/lib/rollouts/types";
import { harmfulDropExampleHref } from "@/lib/rollouts/url";
import type { Verdict } from "@/lib/rollouts/verdict";
import styles from "./rollouts.module.css";

export interface HarmfulToolLine extends ToolHarmRow {
  examples: HarmfulDropExample[];
  /** The tools page for this tool, with every example of the window. */
  moreHref: string;
}

const PANEL_CLASS: Record<Verdict["status"], string> = {
  safe: styles.verdictSafe ?? "",
  harmful: styles.verdictHarmful ?? "",
  insufficient: styles.verdictPending ?? "",
  "no-outcomes": styles.verdictPending ?? "",
};

const HEADLINE_CLASS: Record<Verdict["status"], string> = {
  safe: styles.headlineSafe ?? "",
  harmful: styles.headlineHarmful ?? "",
  insufficient: styles.headlinePending ?? "",
  "no-outcomes": styles.headlinePending ?? "",
};

/** The observe-traffic verdict: the answer, the two checks behind it, and what broke. */
export function VerdictPanel({
  verdict,
  scope,
  tools,
  runsHref,
}: {
  verdict: Verdict;
  /** e.g. "tenant acme, role action". */
  scope: string;
  tools: HarmfulToolLine[];
  /** Runs of this tenant with harmful drops. */
  runsHref: string;
}) {
  return (
    <section
      className={`panel ${styles.verdict} ${PANEL_CLASS[verdict.status]}`}
      aria-labelledby="verdict-title"
      data-testid="verdict"
      data-status={verdict.status}
    >
      <p className="muted small">Verdict on observe traffic of {scope}</p>
      <h2 id="verdict-title" className={`${styles.headline} ${HEADLINE_CLASS[verdict.status]}`}>
        {verdict.headline}
      </h2>
      <ul className={styles.checks} aria-label="Checks">
        {verdict.checks.map((check) => (
          <li key={check.id} className={styles.check} data-testid={`verdict-check-${check.id}`}>
            <span
              className={`${styles.checkMark} ${check.passed ? styles.passed : styles.failed}`}
              role="img"
              aria-label={check.passed ? "passed" : "failed"}
            >
              {check.passed ? "✓" : "✗"}
            </span>
            <span>{check.text}</span>
          </li>
        ))}
      </ul>
      <dl className={styles.figures}>
        <div>
          <dt>Harmful-drop rate (observe)</dt>
          <dd data-testid="verdict-rate">{verdict.display.rate}</dd>
        </div>
        <div>
          <dt>95% Wilson interval</dt>
          <dd data-testid="verdict-interval">{verdict.display.interval}</dd>
        </div>
        <div>
          <dt>Threshold</dt>
          <dd data-testid="verdict-threshold">{verdict.display.threshold}</dd>
        </div>
        <div>
          <dt>Minimum sample</dt>
          <dd data-testid="verdict-minimum">{formatCount(verdict.minimumOutcomes)} outcomes</dd>
        </div>
        <div>
          <dt>Observe decisions with an outcome</dt>
          <dd>
            {formatCount(verdict.outcomes)} of {formatCount(verdict.decisions)} (
            {verdict.display.coverage})
          </dd>
        </div>
      </dl>
      <p className="muted small">
        Safe to enforce means: at least {formatCount(verdict.minimumOutcomes)} observe decisions
        with a reported outcome, and the 95% upper bound of the harmful-drop rate below{" "}
        {verdict.display.threshold}. {formatCount(verdict.minimumOutcomes)} is the smallest sample
        for which even zero harmful drops put that bound below {verdict.display.threshold}; with
        fewer, no sample could show the rate is low enough.
        {verdict.outcomeCoverage !== null && verdict.outcomeCoverage < 1
          ? " Only decisions that reported a tool_call_outcome count; if outcomes are reported for a biased subset of decisions, so is this rate."
          : ""}
      </p>
      {tools.length > 0 ? (
        <div data-testid="harmful-tools">
          <h3 className="small-heading">
            Tools enforce would have withheld from calls the model made
          </h3>
          <ol className={styles.toolList}>
            {tools.map((tool) => (
              <li key={tool.tool} data-tool={tool.tool}>
                <code>{tool.tool}</code>: {formatCount(tool.harmfulDrops)} harmful{" "}
                {tool.harmfulDrops === 1 ? "drop" : "drops"}
                <span className={styles.examples}>
                  {tool.examples.map((example) => (
                    <Link
                      key={`${example.tenantId}/${example.runId}/${example.iteration}`}
                      href={harmfulDropExampleHref(example)}
                      prefetch={false}
                      title={`Run ${example.runId}, iteration ${example.iteration}`}
                    >
                      {example.runId.length > 24 ? `${example.runId.slice(0, 24)}…` : example.runId}{" "}
                      #{example.iteration}
                    </Link>
                  ))}
                  <Link href={tool.moreHref} prefetch={false}>
                    all examples
                  </Link>
                </span>
              </li>
            ))}
          </ol>
          <p className="small">
            <Link href={runsHref} prefetch={false}>
              Runs with harmful drops
            </Link>{" "}
            <span className="muted">
              · Keep a tool that must stay available in the always-include allowlist.
            </span>
          </p>
        </div>
      ) : null}
    </section>
  );
}
