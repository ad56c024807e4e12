/**
 * The run trace opened from a backtest's example (`?backtest=<id>&iteration=<n>`): that
 * iteration replayed with the backtest's candidate, its stage table beside the recorded one,
 * and the calls the candidate would lose.
 */
import Link from "next/link";
import type { TenantScope } from "@/lib/auth/scope";
import { replayDecisionWithCandidate } from "@/lib/backtest/replay-decision";
import { compareReplay } from "@/lib/backtest/replay-view";
import { shortVersion } from "@/lib/backtest/result-view";
import { backtestHref } from "@/lib/backtest/url";
import type { IterationView } from "@/lib/dashboard/trace";
import { getBacktest } from "@/lib/db/queries/backtests";
import { getRunDecision, listRunOutcomes } from "@/lib/db/queries/run-trace";
import styles from "../backtests/backtests.module.css";
import { CalledToolList, StageTable, WarningList } from "./iteration-card";
import { ToolNames } from "./tool-names";

function Side({ title, view, testId }: { title: string; view: IterationView; testId: string }) {
  return (
    <div data-testid={testId}>
      <h3>{title}</h3>
      <p className="small">
        {view.offered.length} offered → <strong>{view.selected.length} bound</strong> (each stage's
        size counts what it kept; the names bound are listed below)
      </p>
      <WarningList warnings={view.warnings} />
      <StageTable stages={view.stages} compact />
      <h4>Bound ({view.selected.length})</h4>
      <ToolNames names={view.selected} tone="kept" />
      <h4>Tools the model called</h4>
      {view.outcome.reported ? (
        <CalledToolList called={view.outcome.called} />
      ) : (
        <p className="muted">No tool_call_outcome reported for this iteration.</p>
      )}
    </div>
  );
}

function Notice({ children }: { children: React.ReactNode }) {
  return (
    <section id="replay" className="panel notice" data-testid="backtest-replay">
      {children}
    </section>
  );
}

export async function BacktestReplaySection({
  scope,
  tenant,
  runId,
  backtestId,
  iteration,
}: {
  scope: TenantScope;
  tenant: string;
  runId: string;
  backtestId: string;
  iteration: number;
}) {
  const backtest = await getBacktest(backtestId, scope);
  if (!backtest || backtest.tenantId !== tenant) {
    return (
      <Notice>No backtest of this tenant has that id: the iterations below are as recorded.</Notice>
    );
  }
  const decision = await getRunDecision(tenant, runId, iteration);
  if (!decision) {
    return <Notice>This run has no decision at iteration #{iteration} to replay.</Notice>;
  }
  const replay = await replayDecisionWithCandidate(backtest.candidate, runId, decision);
  if (!replay.ok) {
    return (
      <Notice>
        The backtest's candidate could not be read to replay this decision: {replay.error}
      </Notice>
    );
  }
  const outcomes = await listRunOutcomes(tenant, runId, iteration, iteration);
  const comparison = compareReplay(decision, outcomes, replay.decision, replay.version);
  return (
    <section
      id="replay"
      className="panel"
      aria-labelledby="replay-title"
      data-testid="backtest-replay"
    >
      <h2 id="replay-title">
        Iteration #{iteration} replayed with the candidate of{" "}
        <Link href={backtestHref(backtest.id)}>a backtest</Link>
      </h2>
      <p>
        {comparison.lost.length > 0 ? (
          <>
            The candidate would not have bound{" "}
            {comparison.lost.map((name, index) => (
              <span key={name}>
                {index > 0 ? ", " : null}
                <code className="tool tool-harmful">{name}</code>
              </span>
            ))}
            , which the model called here.
          </>
        ) : decision.hasOutcome ? (
          "The candidate binds every tool the model called here."
        ) : (
          "No outcome was reported for this iteration: whether a call would be lost cannot be told."
        )}
        {comparison.failure ? <strong className="form-error"> {comparison.failure}</strong> : null}
      </p>
      <p className="muted small">
        Replayed in enforce mode from the recorded inputs (offered tools, role, intent verdict,
        forced choice, lazy-routing names from the recorded trace); the message text is not
        recorded, so the recorded intent verdict is kept.
      </p>
      <div className={styles.sideBySide}>
        <Side
          title={`Recorded (config ${shortVersion(decision.configVersion) || "none"})`}
          view={comparison.recorded}
          testId="replay-recorded"
        />
        <Side
          title={`Replayed with candidate ${shortVersion(replay.version)}`}
          view={comparison.replayed}
          testId="replay-candidate"
        />
      </div>
    </section>
  );
}
