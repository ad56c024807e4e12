"use client";

import { formatCount } from "@/lib/dashboard/format";
import { flaggedIssueKinds } from "@/lib/dashboard/issue-kinds";
import type { ToolRunView } from "@/lib/dashboard/tool-runs";
import type { CalledTool, IterationView, StageView, WarningView } from "@/lib/dashboard/trace";
import { describeUnroutedCall } from "@/lib/dashboard/unrouted-call";
import { LocalTime } from "../ui/local-time";
import { StageWaterfall } from "./stage-waterfall";
import { ToolNames } from "./tool-names";

function IssueBadges({ view }: { view: IterationView }) {
  return (
    <span className="badges">
      {flaggedIssueKinds(view.flags).map((kind) => (
        <span key={kind.key} className={`badge badge-${kind.tone}`}>
          {kind.label}
        </span>
      ))}
    </span>
  );
}

/** The line shown while the card is closed: number, role, mode, hop, palette, issues, time. */
function IterationSummary({ view }: { view: IterationView }) {
  return (
    <summary>
      <span className="iteration-number">#{view.iteration}</span>
      <span className="tag">{view.role}</span>
      <span className={`tag tag-${view.mode}`}>{view.mode}</span>
      <span className="muted">hop {view.turnHopIndex}</span>
      <span>
        {view.unrouted
          ? `${view.offered.length} tools offered`
          : `${view.offered.length} → ${view.selected.length} tools`}
      </span>
      <IssueBadges view={view} />
      <span className="muted iteration-time">
        <LocalTime iso={view.ts} style="time" />
      </span>
    </summary>
  );
}

function NotReported({ text = "not reported" }: { text?: string }) {
  return <span className="muted">{text}</span>;
}

/**
 * Model, agent and time; for a routed call also forced choice, intent, dropped tokens and
 * config version (a call of an agent that routes nothing has none of them).
 */
function IterationMeta({ view, routed }: { view: IterationView; routed: boolean }) {
  return (
    <dl className="meta-grid">
      <div>
        <dt>Model</dt>
        <dd>{view.model ?? <NotReported />}</dd>
      </div>
      <div>
        <dt>Agent</dt>
        <dd>{view.agent ?? <NotReported />}</dd>
      </div>
      {routed ? <RoutedMeta view={view} /> : null}
      <div>
        <dt>Time</dt>
        <dd>
          <LocalTime iso={view.ts} />
        </dd>
      </div>
    </dl>
  );
}

function RoutedMeta({ view }: { view: IterationView }) {
  return (
    <>
      <div>
        <dt>Forced choice</dt>
        <dd>
          {view.forcedChoice ? (
            <code className="tool">{view.forcedChoice}</code>
          ) : (
            <NotReported text="none" />
          )}
        </dd>
      </div>
      <div>
        <dt>Intent</dt>
        <dd>{view.intentLabel ?? <NotReported text="none" />}</dd>
      </div>
      <div>
        <dt>Dropped tokens (est.)</dt>
        <dd>{formatCount(view.droppedTokens)}</dd>
      </div>
      <div>
        <dt>Config version</dt>
        <dd className="mono">{view.configVersion || <NotReported text="none" />}</dd>
      </div>
    </>
  );
}

export function WarningList({ warnings }: { warnings: WarningView[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="warning-list" aria-label="Warnings">
      {warnings.map((warning, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: warnings may repeat; order is identity.
          key={index}
          className={`warning warning-${warning.kind}`}
        >
          <strong>{warning.label}</strong>
          {warning.stage ? <> in {warning.stage}</> : null}
          {warning.detail ? <>: {warning.detail}</> : null}
        </li>
      ))}
    </ul>
  );
}

/** The waterfall of palette sizes, with what observe mode means for it. */
function PaletteSize({ view }: { view: IterationView }) {
  return (
    <div>
      <h4>Palette size</h4>
      <StageWaterfall steps={view.waterfall} />
      {view.mode === "observe" ? (
        <p className="muted small">
          Observe mode: the model was offered all {view.offered.length} tools; “selected” is what
          enforce would have bound.
        </p>
      ) : null}
    </div>
  );
}

export function CalledToolList({ called }: { called: CalledTool[] }) {
  if (called.length === 0) return <p className="muted">No tool was called.</p>;
  return (
    <ul className="tool-list">
      {called.map((tool, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a tool may be called twice; order is identity.
        <li key={`${index}:${tool.name}`}>
          <code className={`tool ${tool.harmful ? "tool-harmful" : "tool-called"}`}>
            {tool.name}
          </code>
          {tool.harmful ? (
            <span className="badge badge-error">harmful drop: {tool.name}</span>
          ) : null}
          {tool.notOffered ? <span className="badge">not offered</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** What the model called (harmful drops flagged) and the outcome's errors. */
function ToolsCalled({ outcome }: { outcome: IterationView["outcome"] }) {
  return (
    <div>
      <h4>Tools the model called</h4>
      {outcome.reported ? (
        <>
          <CalledToolList called={outcome.called} />
          {outcome.errors.map((error, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: errors may repeat; order is identity.
            <p key={index} className="warning warning-stage_error">
              Outcome error: {error}
            </p>
          ))}
        </>
      ) : (
        <p className="muted">No tool_call_outcome reported for this iteration.</p>
      )}
    </div>
  );
}

function stageRowClass(stage: StageView): string | undefined {
  if (stage.isError) return "row-error";
  if (stage.reinstated.length > 0 || stage.warnings.length > 0) return "row-warn";
  return undefined;
}

function StageRow({ stage, compact }: { stage: StageView; compact: boolean }) {
  return (
    <tr className={stageRowClass(stage)}>
      <th scope="row">{stage.stage}</th>
      <td>
        {stage.action}
        {stage.degraded ? <span className="badge">degraded</span> : null}
      </td>
      <td className="num">
        {stage.sizeBefore} → {stage.sizeAfter}
      </td>
      {compact ? null : (
        <td>
          <ToolNames names={stage.kept} tone="kept" />
        </td>
      )}
      <td>
        <ToolNames names={stage.dropped} tone="dropped" />
      </td>
      <td>
        <ToolNames names={stage.added} tone="added" />
      </td>
      <td>
        <ToolNames names={stage.reinstated} tone="reinstated" />
        {stage.reinstated.length > 0 ? (
          <span className="badge badge-warn">reinstated: {stage.reinstated.join(", ")}</span>
        ) : null}
      </td>
      <td className="detail-cell">
        {stage.detail || <span className="muted">—</span>}
        {stage.forcedChoice ? (
          <div className="muted small">
            forced: <code className="tool">{stage.forcedChoice}</code>
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * Each stage of the trace: what it kept, dropped, added and reinstated, and why. `compact`
 * leaves the kept names out (the size column still counts them), for two tables side by side.
 */
export function StageTable({
  stages,
  compact = false,
}: {
  stages: StageView[];
  compact?: boolean;
}) {
  if (stages.length === 0) return <p className="muted">The decision carried no stage records.</p>;
  return (
    <div className="table-scroll">
      <table className="stage-table">
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">Action</th>
            <th scope="col" className="num">
              Size
            </th>
            {compact ? null : <th scope="col">Kept</th>}
            <th scope="col">Dropped</th>
            <th scope="col">Added</th>
            <th scope="col">Reinstated</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {stages.map((stage) => (
            <StageRow key={stage.index} stage={stage} compact={compact} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Offered, selected and dropped tool names side by side. */
function ToolLists({ view }: { view: IterationView }) {
  return (
    <div className="iteration-columns">
      <div>
        <h4>Offered ({view.offered.length})</h4>
        <ToolNames names={view.offered} />
      </div>
      <div>
        <h4>Selected ({view.selected.length})</h4>
        <ToolNames names={view.selected} tone="kept" />
      </div>
      <div>
        <h4>Dropped ({view.dropped.length})</h4>
        <ToolNames names={view.dropped} tone="dropped" />
      </div>
    </div>
  );
}

function formatDuration(ms: number): string {
  return ms >= 1_000 ? `${(ms / 1_000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

/** The tool runs joined to this call: name, duration and error. */
function ToolRuns({ runs }: { runs: ToolRunView[] }) {
  if (runs.length === 0) return null;
  return (
    <div>
      <h4>Tool runs ({runs.length})</h4>
      <div className="table-scroll">
        <table className="stage-table" data-testid="tool-runs">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.key} className={run.error === null ? undefined : "row-error"}>
                <th scope="row">
                  {run.named ? (
                    <code className="tool">{run.name}</code>
                  ) : (
                    <span className="muted">{run.name}</span>
                  )}
                  {run.joinedBy === "time" ? (
                    <span className="muted small" title="No call id: placed by time">
                      {" "}
                      (by time)
                    </span>
                  ) : null}
                </th>
                <td className="num">{formatDuration(run.durationMs)}</td>
                <td>
                  {run.error === null ? (
                    <span className="muted">—</span>
                  ) : (
                    run.error || "failed (no message)"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * A call of an agent that routes nothing (mode off, from its OpenTelemetry spans): nothing was
 * narrowed, so no stage table; what it offered, what the model called, and the tool runs.
 */
function UnroutedCallBody({ view }: { view: IterationView }) {
  const summary = describeUnroutedCall(view);
  return (
    <>
      <p data-testid="unrouted-call">
        {summary.offered}
        {summary.called === null ? (
          <>
            ; <span className="muted">calls not recorded</span>
          </>
        ) : summary.called.length === 0 ? (
          <>, called no tool</>
        ) : (
          <>
            , called{" "}
            {summary.called.map((name, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a tool may be called twice; order is identity.
              <span key={`${index}:${name}`}>
                {index > 0 ? ", " : null}
                <code className="tool tool-called">{name}</code>
              </span>
            ))}
          </>
        )}
      </p>
      <p className="muted small">
        Mode off: an agent that routes nothing, read from its OpenTelemetry spans. The model saw
        every offered tool.
      </p>
      {view.outcome.errors.map((error, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: errors may repeat; order is identity.
        <p key={index} className="warning warning-stage_error">
          Outcome error: {error}
        </p>
      ))}
      <ToolRuns runs={view.toolRuns} />
      <div>
        <h4>Offered ({view.offered.length})</h4>
        <ToolNames names={view.offered} />
      </div>
    </>
  );
}

/** One iteration of a run: summary line, then (expanded) its meta, waterfall, stages, calls. */
export function IterationCard({ view, open }: { view: IterationView; open: boolean }) {
  if (view.unrouted) {
    return (
      <li className={`iteration${view.hasIssues ? " has-issues" : ""}`} id={view.anchor}>
        <details open={open}>
          <IterationSummary view={view} />
          <div className="iteration-body">
            <IterationMeta view={view} routed={false} />
            <WarningList warnings={view.warnings} />
            <UnroutedCallBody view={view} />
          </div>
        </details>
      </li>
    );
  }
  return (
    <li className={`iteration${view.hasIssues ? " has-issues" : ""}`} id={view.anchor}>
      <details open={open}>
        <IterationSummary view={view} />
        <div className="iteration-body">
          <IterationMeta view={view} routed />
          <WarningList warnings={view.warnings} />
          <div className="iteration-columns">
            <PaletteSize view={view} />
            <ToolsCalled outcome={view.outcome} />
          </div>
          <ToolRuns runs={view.toolRuns} />
          <h4>Stages</h4>
          {!view.traceReadable ? (
            <p className="warning">Part of this decision's trace could not be read.</p>
          ) : null}
          <StageTable stages={view.stages} />
          <ToolLists view={view} />
        </div>
      </details>
    </li>
  );
}
