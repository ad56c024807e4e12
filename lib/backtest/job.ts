/**
 * Runs one backtest (SPEC §10): streams the window's decisions from PostgreSQL in keyset-paged
 * chunks (`WindowReader`, a few in flight), replays each in (ts, id) order through the
 * candidate (and baseline) config, and checkpoints the partial sums with the keyset position
 * after the chunk that ends each checkpoint interval (a second by default) and at the end.
 * Memory stays bounded by the chunks in flight and the sums (tools × roles), whatever the
 * window.
 *
 * - Progress: `replayed` grows at each checkpoint.
 * - Cancel: asked through `requestBacktestCancel`, honoured at the next checkpoint (the
 *   checkpointed sums are kept).
 * - Restart: a job that stops anywhere resumes from the last checkpoint; chunks replayed
 *   after it are read and replayed again, never counted twice. A database that
 *   cannot be reached mid-job is such a stop (the job queue retries); any other error fails
 *   the backtest with its reason.
 */
import "server-only";
import {
  type ClaimedBacktest,
  type Cursor,
  claimBacktest,
  commitChunk,
  DecisionTexts,
  finishBacktest,
  openReadConnections,
  planWindow,
  readToolSizes,
  saveEstimate,
} from "@/lib/db/queries/backtest-job";
import { isUnavailable } from "@/lib/db/unavailable";
import { env } from "@/lib/env";
import { estimateDroppedTokens, type RoutingConfig } from "@/lib/selection";
import { BacktestAccumulator } from "./accumulate";
import { readBacktestConfig } from "./config";
import { ConfigReplayer, notesFor, RecordedInputsReader, type ReplayedArm } from "./replay";
import type { ToolSizeEstimate } from "./types";
import { WindowReader } from "./window-reader";

/** Decisions per chunk: one read, one replay batch. */
export const DEFAULT_CHUNK_SIZE = 1_000;
/**
 * Least time between two checkpoints. Each one writes the whole partial result (tens of kB of
 * JSON) to PostgreSQL; once per chunk, that was a sixth of PostgreSQL's work for the job.
 */
export const DEFAULT_CHECKPOINT_EVERY_MS = 1_000;
/** The replay yields the event loop this often, so pages keep answering beside it. */
const YIELD_EVERY_MS = 8;

export interface RunBacktestOptions {
  chunkSize?: number;
  /**
   * Chunks read ahead while one is replayed, each on a connection of its own; by default
   * `ROUTELENS_BACKTEST_READS` (1). Reading is most of the job's cost: on a 2-core machine 2
   * reads in flight take the job from about 34 to 25 s a million decisions, but slow the
   * dashboard beside it about threefold (docs/PERFORMANCE.md).
   */
  readsInFlight?: number;
  /** 0 checkpoints after every chunk. */
  checkpointEveryMs?: number;
  /**
   * Asked after each chunk is replayed, before its checkpoint if one is due (counting from 0
   * in this run): true stops the job there without a checkpoint, as a crash would (tests stop
   * jobs mid-way).
   */
  interruptBeforeCommit?: (chunk: number, decisions: number) => boolean | Promise<boolean>;
}

/**
 * How a run ended. `superseded`: another run of the same backtest committed first; this one
 * stopped without counting anything. `interrupted`: `interruptBeforeCommit` stopped it.
 */
export type RunBacktestOutcome =
  | "done"
  | "cancelled"
  | "failed"
  | "not-runnable"
  | "superseded"
  | "interrupted";

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Sizes for every tool a config's catalogue describes that the store has no figure for. */
function withCatalogSizes(
  sizes: Map<string, ToolSizeEstimate>,
  configs: readonly RoutingConfig[],
): ToolSizeEstimate[] {
  for (const config of configs) {
    for (const entry of config.catalog?.entries() ?? []) {
      if (!sizes.has(entry.name)) {
        sizes.set(entry.name, {
          tool: entry.name,
          tokens: estimateDroppedTokens([entry]),
          source: "catalog",
        });
      }
    }
  }
  return [...sizes.values()].sort((a, b) => (a.tool < b.tool ? -1 : 1));
}

/** Runs (or resumes) the backtest `id` to its end, a cancel, or a failure. */
export async function runBacktest(
  id: string,
  options: RunBacktestOptions = {},
): Promise<RunBacktestOutcome> {
  const backtest = await claimBacktest(id);
  if (!backtest) return "not-runnable";
  const candidate = readBacktestConfig(backtest.candidate);
  const baseline = backtest.baseline == null ? null : readBacktestConfig(backtest.baseline);
  if (!candidate.ok || (baseline !== null && !baseline.ok)) {
    const error = !candidate.ok
      ? `candidate config: ${candidate.error}`
      : `baseline config: ${baseline && !baseline.ok ? baseline.error : ""}`;
    await finishBacktest(id, "failed", { error });
    return "failed";
  }
  try {
    return await replayWindow(
      backtest,
      candidate.config,
      baseline?.ok ? baseline.config : null,
      options,
    );
  } catch (error) {
    // The database gone for a moment: the job queue retries the job, which resumes from the
    // last committed chunk. Anything else fails the backtest, with the reason.
    if (isUnavailable(error)) throw error;
    await finishBacktest(id, "failed", {
      error: error instanceof Error ? error.message : String(error),
    });
    return "failed";
  }
}

async function replayWindow(
  backtest: ClaimedBacktest,
  candidateConfig: RoutingConfig,
  baselineConfig: RoutingConfig | null,
  options: RunBacktestOptions,
): Promise<RunBacktestOutcome> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const plan = await planWindow(backtest, backtest.cursor?.ts ?? backtest.from, chunkSize);
  if (backtest.cursor === null && backtest.estimatedTotal === 0) {
    await saveEstimate(backtest.id, plan.decisions);
  }
  const candidate = new ConfigReplayer(candidateConfig);
  const baseline = baselineConfig ? new ConfigReplayer(baselineConfig) : null;
  // A resumed job keeps the sizes it started with, so every chunk is counted alike.
  const toolSizes =
    backtest.result?.toolSizes.filter((size) => size.source !== "unknown") ??
    withCatalogSizes(
      await readToolSizes(backtest),
      baselineConfig ? [candidateConfig, baselineConfig] : [candidateConfig],
    );
  const accumulator = new BacktestAccumulator(
    {
      tenantId: backtest.tenantId,
      candidateVersion: candidate.configVersion,
      baselineVersion: baseline?.configVersion ?? null,
      toolSizes,
    },
    backtest.result,
  );

  /** The keyset position of the last checkpoint, and what was replayed after it. */
  let cursor: Cursor | null = backtest.cursor;
  let replayedSince = 0;
  let checkpointedAt = performance.now();
  const checkpointEveryMs = options.checkpointEveryMs ?? DEFAULT_CHECKPOINT_EVERY_MS;
  /** Writes a checkpoint up to `next`: null when the job must stop with that outcome. */
  const checkpoint = async (next: Cursor): Promise<RunBacktestOutcome | null> => {
    const state = await commitChunk(backtest.id, cursor, next, replayedSince, accumulator.result());
    if (state === null) return "superseded";
    cursor = next;
    replayedSince = 0;
    checkpointedAt = performance.now();
    if (state === "cancelling") {
      await finishBacktest(backtest.id, "cancelled");
      return "cancelled";
    }
    return null;
  };

  const recordedInputs = new RecordedInputsReader();
  let replayedTo: Cursor | null = cursor;
  const readsInFlight = options.readsInFlight ?? env().ROUTELENS_BACKTEST_READS;
  const connections = await openReadConnections(readsInFlight);
  try {
    const window = new WindowReader(
      backtest,
      cursor,
      plan.cuts,
      chunkSize,
      readsInFlight,
      new DecisionTexts(),
      connections.clients,
    );
    for (let chunk = 0; ; chunk++) {
      // The next chunks are read while this one is replayed.
      const decisions = await window.next();
      const last = decisions.at(-1);
      if (!last) {
        if (replayedSince > 0 && replayedTo) {
          const stop = await checkpoint(replayedTo);
          if (stop) return stop;
        }
        await finishBacktest(backtest.id, "done", { result: accumulator.result() });
        return "done";
      }
      const next: Cursor = { ts: last.ts, id: last.id };
      let slice = performance.now();
      for (const decision of decisions) {
        const inputs = recordedInputs.read(decision);
        // Most replays are answered from memory at once; only the others are awaited.
        let candidateArm = candidate.replay(decision, inputs);
        if (candidateArm instanceof Promise) candidateArm = await candidateArm;
        let baselineArm: ReplayedArm | Promise<ReplayedArm> | null =
          baseline?.replay(decision, inputs) ?? null;
        if (baselineArm instanceof Promise) baselineArm = await baselineArm;
        accumulator.add({
          decision,
          candidate: candidateArm,
          baseline: baselineArm,
          notes: notesFor(decision, inputs, candidate),
        });
        if (performance.now() - slice >= YIELD_EVERY_MS) {
          await yieldToEventLoop();
          slice = performance.now();
        }
      }
      replayedSince += decisions.length;
      replayedTo = next;
      if (await options.interruptBeforeCommit?.(chunk, decisions.length)) return "interrupted";
      if (performance.now() - checkpointedAt >= checkpointEveryMs) {
        const stop = await checkpoint(next);
        if (stop) return stop;
      }
    }
  } finally {
    connections.close();
  }
}
