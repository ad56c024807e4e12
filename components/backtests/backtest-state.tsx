import type { StateView } from "@/lib/backtest/result-view";

const TONE_CLASS: Record<StateView["tone"], string> = {
  ok: "badge badge-ok",
  warn: "badge badge-warn",
  error: "badge badge-error",
  pending: "badge",
};

/** A backtest's state as a badge, with its progress while it is not done. */
export function BacktestState({ view, progress = true }: { view: StateView; progress?: boolean }) {
  return (
    <span className="badges" data-testid="backtest-state" data-state={view.state}>
      <span className={TONE_CLASS[view.tone]}>{view.label}</span>
      {progress && view.state !== "done" ? (
        <span className="small muted cell-wrap">{view.progressText}</span>
      ) : null}
    </span>
  );
}
