/**
 * Backtests from the backtest pages (SPEC §10): starting one and cancelling one. The viewer is
 * passed in, so the server actions (`backtest-actions.ts`) stay thin and the rules are tested
 * without a browser.
 *
 * Who may do what: maintainers of a tenant and admins start and cancel its backtests; viewers
 * read them. A backtest outside what the viewer may change is answered as if it did not exist.
 * Every start and cancel writes an audit row.
 */
import "server-only";
import { getBacktest, requestBacktestCancel } from "@/lib/db/queries/backtests";
import { backtestCancelSchema } from "@/lib/schemas/backtest-pages";
import { canMaintain, scopeOf, type Viewer } from "./access";
import { recordAudit } from "./audit";
import { type FormState, readForm } from "./form-state";

export interface BacktestFormState extends FormState {
  /** The backtest started. */
  backtestId?: string;
}

const BACKTEST_NOT_FOUND =
  "No such backtest among those you may cancel: it may belong to a tenant you do not maintain. Reload the page.";

/**
 * Asks the backtest the form names to stop: a queued one is cancelled at once, a running one
 * stops before its next chunk. Writes a `backtest-cancelled` audit row.
 */
export async function cancelBacktestAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<BacktestFormState> {
  const read = readForm(backtestCancelSchema, form);
  if (!read.ok) return read.state;
  const scope = scopeOf(viewer);
  const backtest = await getBacktest(read.data.id, scope);
  if (!backtest || !canMaintain(viewer, backtest.tenantId)) return { error: BACKTEST_NOT_FOUND };
  const nothingToCancel = (state: string) => ({
    error: `This backtest is already ${state}: there is nothing to cancel.`,
  });
  if (backtest.state !== "queued" && backtest.state !== "running") {
    return nothingToCancel(backtest.state);
  }
  const state = await requestBacktestCancel(backtest.id, scope);
  if (state === null) return { error: BACKTEST_NOT_FOUND };
  if (state !== "cancelled" && state !== "cancelling") return nothingToCancel(state);
  await recordAudit({
    action: "backtest-cancelled",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: backtest.tenantId,
    target: backtest.id,
    detail: { replayed: backtest.progress.replayed, state },
    headers: requestHeaders,
  });
  return {
    done:
      state === "cancelled"
        ? "Cancelled before it started."
        : "Cancelling: the job stops before its next chunk.",
  };
}
