"use server";
/**
 * The backtest pages' server actions. Server actions are public endpoints, so each one
 * resolves the viewer itself and leaves the rules of who may do what to
 * `backtest-management.ts`.
 */
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { backtestHref } from "@/lib/backtest/url";
import { getViewer } from "./access";
import { type BacktestFormState, cancelBacktestAs, startBacktestAs } from "./backtest-management";

const SIGNED_OUT: BacktestFormState = { error: "You are signed out. Sign in again, then retry." };

export async function cancelBacktest(
  _previous: BacktestFormState,
  form: FormData,
): Promise<BacktestFormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  const state = await cancelBacktestAs(viewer, form, await headers());
  if (state.done) revalidatePath("/backtests");
  return state;
}

/** Starts a backtest from the new-backtest form; a started one opens its own page. */
export async function startBacktest(
  _previous: BacktestFormState,
  form: FormData,
): Promise<BacktestFormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  const state = await startBacktestAs(viewer, form, await headers());
  if (!state.backtestId) return state;
  revalidatePath("/backtests");
  redirect(backtestHref(state.backtestId));
}
