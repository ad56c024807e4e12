import Link from "next/link";
import type { ReactNode } from "react";
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

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The two checks behind the verdict, each passed or failed. */
function VerdictChecks({ checks }: { checks: Verdict["checks"] }) {
  return (
    <ul className={styles.checks} aria-label="Checks">
      {checks.map((check) => (
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
  );
}

/** Rate, interval, threshold, minimum sample and outcome coverage. */
function VerdictFigures({ verdict }: { verdict: Verdict }) {
  return (
    <dl className={styles.figures}>
      <div>
        <dt>{verdict.wording.rateLabel}</dt>
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
        <dt>{capitalise(verdict.wording.decisions)} with an outcome</dt>
        <dd>
          {formatCount(verdict.outcomes)} of {formatCount(verdict.decisions)} (
          {verdict.display.coverage})
        </dd>
      </div>
    </dl>
  );
}

/** What "safe to enforce" means, and why the minimum sample is what it is. */
function VerdictRule({ verdict }: { verdict: Verdict }) {
  return (
    <p className="muted small">
      Safe to enforce means: at least {formatCount(verdict.minimumOutcomes)}{" "}
      {verdict.wording.decisions} with a reported outcome, and the 95% upper bound of the
      harmful-drop rate below {verdict.display.threshold}. {formatCount(verdict.minimumOutcomes)} is
      the smallest sample for which even zero harmful drops put that bound below{" "}
      {verdict.display.threshold}; with fewer, no sample could show the rate is low enough.
      {verdict.outcomeCoverage !== null && verdict.outcomeCoverage < 1
        ? " Only decisions that reported a tool_call_outcome count; if outcomes are reported for a biased subset of decisions, so is this rate."
        : ""}
    </p>
  );
}

/** One harmful tool: its count, a few example decisions, and the link to all of them. */
function HarmfulToolItem({ tool }: { tool: HarmfulToolLine }) {
  return (
    <li data-tool={tool.tool}>
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
            {example.runId.length > 24 ? `${example.runId.slice(0, 24)}…` : example.runId} #
            {example.iteration}
          </Link>
        ))}
        <Link href={tool.moreHref} prefetch={false}>
          all examples
        </Link>
      </span>
    </li>
  );
}

/** The tools enforce would have withheld, and the runs where that happened. */
function HarmfulTools({ tools, runsHref }: { tools: HarmfulToolLine[]; runsHref: string }) {
  if (tools.length === 0) return null;
  return (
    <div data-testid="harmful-tools">
      <h3 className="small-heading">Tools enforce would have withheld from calls the model made</h3>
      <ol className={styles.toolList}>
        {tools.map((tool) => (
          <HarmfulToolItem key={tool.tool} tool={tool} />
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
  );
}

/**
 * A verdict as a panel: `intro` says what was judged, then the answer, the two checks behind
 * it, the figures and the rule; `children` follow (what broke).
 */
export function VerdictCard({
  verdict,
  intro,
  titleId = "verdict-title",
  testId = "verdict",
  children,
}: {
  verdict: Verdict;
  intro: ReactNode;
  titleId?: string;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <section
      className={`panel ${styles.verdict} ${PANEL_CLASS[verdict.status]}`}
      aria-labelledby={titleId}
      data-testid={testId}
      data-status={verdict.status}
    >
      <p className="muted small">{intro}</p>
      <h2 id={titleId} className={`${styles.headline} ${HEADLINE_CLASS[verdict.status]}`}>
        {verdict.headline}
      </h2>
      <VerdictChecks checks={verdict.checks} />
      <VerdictFigures verdict={verdict} />
      <VerdictRule verdict={verdict} />
      {children}
    </section>
  );
}

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
    <VerdictCard verdict={verdict} intro={`Verdict on observe traffic of ${scope}`}>
      <HarmfulTools tools={tools} runsHref={runsHref} />
    </VerdictCard>
  );
}
