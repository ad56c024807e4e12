"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { StateView } from "@/lib/backtest/result-view";
import { BacktestState } from "./backtest-state";
import styles from "./backtests.module.css";

/** How often a running backtest's page asks the server for its progress. */
const REFRESH_MS = 2_000;

/**
 * A queued or running backtest: its state, decisions replayed of the total and a bar. While
 * it is active the page's server data is re-fetched every 2 s (`router.refresh()`: no full
 * reload, scroll and URL kept); once it is done the refreshed page shows the result.
 */
export function BacktestProgress({ view }: { view: StateView }) {
  const router = useRouter();
  useEffect(() => {
    if (!view.active) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [view.active, router]);

  return (
    <div data-testid="backtest-progress" aria-live="polite">
      <BacktestState view={view} progress={false} />
      <p className="small" data-testid="backtest-progress-text">
        {view.progressText}
      </p>
      {view.percent !== null ? (
        <span
          className={styles.progressTrack}
          role="progressbar"
          aria-label="Decisions replayed"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={view.percent}
        >
          <span className={styles.progressBar} style={{ width: `${view.percent}%` }} />
        </span>
      ) : null}
      {view.active ? (
        <p className="muted small">This page updates itself every 2 seconds while the job runs.</p>
      ) : null}
    </div>
  );
}
