/**
 * Runs alerts in a server process: the evaluation every minute and the delivery jobs, on the
 * process's pg-boss job queue (`lib/jobs/queue.ts`, shared with the backtests).
 *
 * - Evaluation: a pg-boss cron schedule (`* * * * *`, UTC) creates one job per minute across
 *   every server process (pg-boss files each occurrence under one key), and one worker takes
 *   it. The evaluator is idempotent per (rule, minute) besides (`evaluator.ts`), so a job run
 *   twice, or by two processes, evaluates nothing twice; minutes missed while no server ran
 *   are caught up at the next job (at most the last hour).
 * - Delivery: each outbox row gets a job; a failed attempt schedules the next one with
 *   `startAfter`. Every evaluation also sweeps pending deliveries that are due, so a delivery
 *   whose job was lost (a crash between the commit and the send) is still sent.
 *
 * Started by `instrumentation.ts` in `npm run dev` and `npm start` (unless ROUTELENS_ALERTS=0);
 * nothing else starts it. Stopping the job queue (`stopJobQueue()`) asks running jobs to finish
 * (up to 5 seconds); Next.js may end the process sooner, which the evaluator's transactions and
 * the delivery claims make safe.
 *
 * Tests set ROUTELENS_ALERTS_SLOT_MS to a few seconds: pg-boss cron runs at minute resolution,
 * so then each process sends an evaluation job per slot itself (one job per slot: a singleton
 * key) instead of the schedule.
 */
import "server-only";
import type { PgBoss } from "pg-boss";
import { attemptDelivery, dueDeliveries } from "@/lib/alerts/delivery";
import { evaluateRules } from "@/lib/alerts/evaluator";
import { publicBaseUrl } from "@/lib/alerts/payload";
import { env } from "@/lib/env";
import { runningJobQueue, startJobQueue } from "@/lib/jobs/queue";

export const EVALUATE_QUEUE = "routelens-alerts-evaluate";
export const DELIVER_QUEUE = "routelens-alerts-deliver";
/** Most minutes one rule catches up after a pause: an hour. */
const MAX_CATCH_UP_MINUTES = 60;

interface Runner {
  timer: NodeJS.Timeout | null;
}

const globalForAlerts = globalThis as unknown as { routelensAlerts?: Runner };

function settings() {
  const e = env();
  return {
    slotMs: e.ROUTELENS_ALERTS_SLOT_MS,
    timeoutMs: e.ROUTELENS_ALERTS_TIMEOUT_MS,
    retryBaseMs: e.ROUTELENS_ALERTS_RETRY_BASE_MS,
    baseUrl: publicBaseUrl(e.ROUTELENS_URL, e.PORT),
  };
}

async function enqueue(boss: PgBoss, ids: readonly string[], startAfter?: Date): Promise<void> {
  for (const id of ids) {
    await boss.send(DELIVER_QUEUE, { id }, startAfter ? { startAfter } : {});
  }
}

async function runEvaluation(boss: PgBoss): Promise<void> {
  const { slotMs, baseUrl } = settings();
  const now = new Date();
  const summary = await evaluateRules({
    now,
    slotMs,
    maxCatchUp: Math.ceil((MAX_CATCH_UP_MINUTES * 60_000) / slotMs),
    baseUrl,
  });
  await enqueue(boss, summary.deliveryIds);
  // Deliveries whose job was lost (or never sent) and whose attempt is due.
  const fresh = new Set(summary.deliveryIds);
  await enqueue(
    boss,
    (await dueDeliveries(now)).filter((id) => !fresh.has(id)),
  );
}

async function runDelivery(boss: PgBoss, id: string): Promise<void> {
  const { timeoutMs, retryBaseMs } = settings();
  const result = await attemptDelivery(id, { timeoutMs, retryBaseMs });
  if (result.retryAt) await enqueue(boss, [id], result.retryAt);
}

/** Starts the evaluator and the delivery workers in this process (once). */
export async function startAlerts(): Promise<void> {
  if (globalForAlerts.routelensAlerts) return;
  const { slotMs } = settings();
  const testSlots = slotMs < 60_000;
  const runner: Runner = { timer: null };
  globalForAlerts.routelensAlerts = runner;
  const boss = await startJobQueue();
  await boss.createQueue(EVALUATE_QUEUE, { retryLimit: 0, expireInSeconds: 300 });
  await boss.createQueue(DELIVER_QUEUE, { retryLimit: 0, expireInSeconds: 120 });
  const polling = testSlots ? 0.5 : 2;
  await boss.work<Record<string, never>>(
    EVALUATE_QUEUE,
    { pollingIntervalSeconds: polling, batchSize: 1 },
    async () => runEvaluation(boss),
  );
  await boss.work<{ id: string }>(
    DELIVER_QUEUE,
    { pollingIntervalSeconds: polling, batchSize: 1 },
    async ([job]) => {
      if (job) await runDelivery(boss, job.data.id);
    },
  );
  if (testSlots) {
    const tick = () => {
      const slot = Math.floor(Date.now() / slotMs) * slotMs;
      boss
        .send(EVALUATE_QUEUE, {}, { singletonKey: `slot-${slot}`, singletonSeconds: 60 })
        .catch((error: unknown) => console.error("[routelens] alerts tick:", error));
    };
    runner.timer = setInterval(tick, slotMs);
    runner.timer.unref();
  } else {
    await boss.schedule(EVALUATE_QUEUE, "* * * * *", {}, { tz: "UTC" });
  }
}

/** Stops this process's test-slot timer; the workers stop with the job queue. */
export function stopAlerts(): void {
  const runner = globalForAlerts.routelensAlerts;
  if (!runner) return;
  if (runner.timer) clearInterval(runner.timer);
  globalForAlerts.routelensAlerts = undefined;
}

/** Sends the outbox rows now (a "send test" or an action that wrote deliveries). */
export async function enqueueDeliveries(ids: readonly string[]): Promise<void> {
  const boss = globalForAlerts.routelensAlerts ? runningJobQueue() : null;
  if (boss) await enqueue(boss, ids);
}
