import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { requireViewer, scopeOf } from "@/lib/auth/access";
import { readBacktestId } from "@/lib/backtest/url";
import { getBacktest } from "@/lib/db/queries/backtests";

/**
 * Answers 404 for a backtest that does not exist or belongs to a tenant the viewer does not
 * read. Checked here, above the page's loading state, so the status is settled before the page
 * starts streaming.
 */
export default async function BacktestLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ backtestId: string }>;
}) {
  const id = readBacktestId((await params).backtestId);
  if (id === null) notFound();
  if (!(await getBacktest(id, scopeOf(await requireViewer())))) notFound();
  return children;
}
