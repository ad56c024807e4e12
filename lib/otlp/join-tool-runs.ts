/**
 * Which LLM call asked for each tool run (SPEC §8). A tool-run span is a sibling, not a child,
 * of the LLM call that asked for it, so the join is by the tool-call id the call's output
 * recorded; a tool run whose id matches no call (or that has none) goes under the latest LLM
 * call of the same trace that started at or before it. Calls are ordered by (start time, span
 * id), the order runs are numbered in. Pure: the run-trace page and the tests use it.
 */

/** An LLM-call span as the join needs it (a stored `otel_spans` row of kind `llm_call`). */
export interface LlmCallSpanRef {
  traceId: string;
  spanId: string;
  startNs: bigint;
  /** The ids of the tool calls in the call's output. */
  callIds: readonly string[];
}

/** A tool-run span as the join needs it (a stored `otel_spans` row of kind `tool_run`). */
export interface ToolRunSpanRef {
  traceId: string;
  spanId: string;
  startNs: bigint;
  /** The id of the tool call it executes; null when not recorded. */
  callId: string | null;
}

/** How a tool run was placed: by its call id, by time, or not at all (no earlier call in its trace). */
export type ToolRunJoin = "call_id" | "time" | "none";

export interface JoinedToolRun<Call extends LlmCallSpanRef, Run extends ToolRunSpanRef> {
  toolRun: Run;
  /** The LLM call that asked for the tool run; null when none could be found. */
  call: Call | null;
  joinedBy: ToolRunJoin;
}

/** Orders spans by (start time, span id): the order LLM calls of a run are numbered in. */
export function compareSpans(
  a: { startNs: bigint; spanId: string },
  b: { startNs: bigint; spanId: string },
): number {
  if (a.startNs !== b.startNs) return a.startNs < b.startNs ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}

/**
 * Every tool run with the LLM call that asked for it, in the order of `toolRuns`. A call id is
 * matched within the tool run's trace first, then across the calls given (one run may span
 * several traces that share a conversation id).
 */
export function joinToolRuns<Call extends LlmCallSpanRef, Run extends ToolRunSpanRef>(
  calls: readonly Call[],
  toolRuns: readonly Run[],
): JoinedToolRun<Call, Run>[] {
  const sorted = [...calls].sort(compareSpans);
  const byCallId = new Map<string, Call[]>();
  const byTrace = new Map<string, Call[]>();
  for (const call of sorted) {
    for (const id of call.callIds) {
      const list = byCallId.get(id);
      if (list) list.push(call);
      else byCallId.set(id, [call]);
    }
    const list = byTrace.get(call.traceId);
    if (list) list.push(call);
    else byTrace.set(call.traceId, [call]);
  }
  return toolRuns.map((toolRun) => {
    if (toolRun.callId !== null) {
      const candidates = byCallId.get(toolRun.callId);
      if (candidates && candidates.length > 0) {
        const sameTrace = candidates.find((c) => c.traceId === toolRun.traceId);
        return { toolRun, call: sameTrace ?? (candidates[0] as Call), joinedBy: "call_id" };
      }
    }
    let latest: Call | null = null;
    for (const call of byTrace.get(toolRun.traceId) ?? []) {
      if (call.startNs > toolRun.startNs) break;
      latest = call;
    }
    return latest
      ? { toolRun, call: latest, joinedBy: "time" }
      : { toolRun, call: null, joinedBy: "none" };
  });
}
