/**
 * The tool runs of a run trace's iterations: each tool-run span placed under the LLM call that
 * asked for it (`joinToolRuns`: by tool-call id, else the latest earlier call of its trace),
 * kept for the calls behind the page's decisions. Pure: the spans come from `listPageSpans`.
 */
import { compareSpans, joinToolRuns } from "@/lib/otlp/join-tool-runs";
import type { CallSpanRecord, ToolRunRecord } from "./types";

export interface ToolRunView {
  key: string;
  /** The tool's name, or the span's name when it named no tool. */
  name: string;
  /** Whether `name` is the tool's (false: the span's name). */
  named: boolean;
  durationMs: number;
  /** The error when the span ended in one ("" when it gave no message); null otherwise. */
  error: string | null;
  /** How the run was placed under its call. */
  joinedBy: "call_id" | "time";
}

/** Nanoseconds to milliseconds, to 0.1 ms. */
const toMs = (ns: bigint) => Number(ns / 100_000n) / 10;

/** Decision id → its tool runs in (start time, span id) order. */
export function groupToolRuns(
  calls: readonly CallSpanRecord[],
  toolRuns: readonly ToolRunRecord[],
): Map<number, ToolRunView[]> {
  const byDecision = new Map<number, ToolRunView[]>();
  const ordered = [...toolRuns].sort(compareSpans);
  for (const { toolRun, call, joinedBy } of joinToolRuns(calls, ordered)) {
    if (call?.decisionId == null || joinedBy === "none") continue;
    const list = byDecision.get(call.decisionId) ?? [];
    list.push({
      key: `${toolRun.traceId}:${toolRun.spanId}`,
      name: toolRun.tool ?? toolRun.name,
      named: toolRun.tool !== null,
      durationMs: toMs(toolRun.endNs > toolRun.startNs ? toolRun.endNs - toolRun.startNs : 0n),
      error: toolRun.error,
      joinedBy,
    });
    byDecision.set(call.decisionId, list);
  }
  return byDecision;
}
