import { formatCount } from "@/lib/dashboard/format";
import { flaggedIssueKinds } from "@/lib/dashboard/issue-kinds";
import type { IterationView } from "@/lib/dashboard/trace";
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

/** One iteration of a run: summary line, then (expanded) its meta, waterfall, stages, calls. */
export function IterationCard({ view, open }: { view: IterationView; open: boolean }) {
  return (
    <li className={`iteration${view.hasIssues ? " has-issues" : ""}`} id={view.anchor}>
      <details open={open}>
        <summary>
          <span className="iteration-number">#{view.iteration}</span>
          <span className="tag">{view.role}</span>
          <span className={`tag tag-${view.mode}`}>{view.mode}</span>
          <span className="muted">hop {view.turnHopIndex}</span>
          <span>
            {view.offered.length} → {view.selected.length} tools
          </span>
          <IssueBadges view={view} />
          <span className="muted iteration-time">
            <LocalTime iso={view.ts} style="time" />
          </span>
        </summary>
        <div className="iteration-body">
          <dl className="meta-grid">
            <div>
              <dt>Model</dt>
              <dd>{view.model ?? <span className="muted">not reported</span>}</dd>
            </div>
            <div>
              <dt>Agent</dt>
              <dd>{view.agent ?? <span className="muted">not reported</span>}</dd>
            </div>
            <div>
              <dt>Forced choice</dt>
              <dd>
                {view.forcedChoice ? (
                  <code className="tool">{view.forcedChoice}</code>
                ) : (
                  <span className="muted">none</span>
                )}
              </dd>
            </div>
            <div>
              <dt>Intent</dt>
              <dd>{view.intentLabel ?? <span className="muted">none</span>}</dd>
            </div>
            <div>
              <dt>Dropped tokens (est.)</dt>
              <dd>{formatCount(view.droppedTokens)}</dd>
            </div>
            <div>
              <dt>Config version</dt>
              <dd className="mono">{view.configVersion || <span className="muted">none</span>}</dd>
            </div>
            <div>
              <dt>Time</dt>
              <dd>
                <LocalTime iso={view.ts} />
              </dd>
            </div>
          </dl>

          {view.warnings.length > 0 ? (
            <ul className="warning-list" aria-label="Warnings">
              {view.warnings.map((warning, index) => (
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
          ) : null}

          <div className="iteration-columns">
            <div>
              <h4>Palette size</h4>
              <StageWaterfall steps={view.waterfall} />
              {view.mode === "observe" ? (
                <p className="muted small">
                  Observe mode: the model was offered all {view.offered.length} tools; “selected” is
                  what enforce would have bound.
                </p>
              ) : null}
            </div>
            <div>
              <h4>Tools the model called</h4>
              {view.outcome.reported ? (
                <>
                  {view.outcome.called.length === 0 ? (
                    <p className="muted">No tool was called.</p>
                  ) : (
                    <ul className="tool-list">
                      {view.outcome.called.map((tool, index) => (
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
                  )}
                  {view.outcome.errors.map((error, index) => (
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
          </div>

          <h4>Stages</h4>
          {!view.traceReadable ? (
            <p className="warning">Part of this decision's trace could not be read.</p>
          ) : null}
          {view.stages.length === 0 ? (
            <p className="muted">The decision carried no stage records.</p>
          ) : (
            <div className="table-scroll">
              <table className="stage-table">
                <thead>
                  <tr>
                    <th scope="col">Stage</th>
                    <th scope="col">Action</th>
                    <th scope="col" className="num">
                      Size
                    </th>
                    <th scope="col">Kept</th>
                    <th scope="col">Dropped</th>
                    <th scope="col">Added</th>
                    <th scope="col">Reinstated</th>
                    <th scope="col">Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {view.stages.map((stage) => (
                    <tr
                      key={stage.index}
                      className={
                        stage.isError
                          ? "row-error"
                          : stage.reinstated.length > 0 || stage.warnings.length > 0
                            ? "row-warn"
                            : undefined
                      }
                    >
                      <th scope="row">{stage.stage}</th>
                      <td>
                        {stage.action}
                        {stage.degraded ? <span className="badge">degraded</span> : null}
                      </td>
                      <td className="num">
                        {stage.sizeBefore} → {stage.sizeAfter}
                      </td>
                      <td>
                        <ToolNames names={stage.kept} tone="kept" />
                      </td>
                      <td>
                        <ToolNames names={stage.dropped} tone="dropped" />
                      </td>
                      <td>
                        <ToolNames names={stage.added} tone="added" />
                      </td>
                      <td>
                        <ToolNames names={stage.reinstated} tone="reinstated" />
                        {stage.reinstated.length > 0 ? (
                          <span className="badge badge-warn">
                            reinstated: {stage.reinstated.join(", ")}
                          </span>
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
                  ))}
                </tbody>
              </table>
            </div>
          )}

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
        </div>
      </details>
    </li>
  );
}
