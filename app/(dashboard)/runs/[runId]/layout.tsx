import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { requireScope } from "@/lib/auth/access";
import { readRunId } from "@/lib/dashboard/url";
import { listTenantsOfRun } from "@/lib/db/queries/runs";

/**
 * Answers 404 for a run id that no tenant the viewer reads has. Checked here, above the page's
 * loading state, so the status is settled before the page starts streaming.
 */
export default async function RunLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ runId: string }>;
}) {
  const runId = readRunId((await params).runId);
  if (runId === null) notFound();
  const scope = await requireScope(undefined);
  if ((await listTenantsOfRun(runId, scope)).length === 0) notFound();
  return children;
}
