/**
 * One evaluation of a rule (SPEC §9), pure: from the rule's state and the metric's reading
 * over its window, the next state, the transition if any, and what to notify.
 *
 * - Below the minimum sample (or a rate over an empty sample) the rule cannot change state: a
 *   rule that is ok stays ok, a firing rule stays firing until enough data shows it resolved.
 *   The state says so (`belowMinSample`), so the page can show "not enough data".
 * - Muted rules are evaluated as usual — their state and history stay true — but nothing is
 *   sent while the mute lasts. What is sent is the difference between the state and the state
 *   last notified, so a rule that starts firing while muted is announced when the mute ends if
 *   it is still firing, and one that fired and resolved within the mute is never announced.
 */
import { type AlertComparison, type AlertStateName, meetsCondition } from "@/lib/schemas/alerts";

export interface RuleCondition {
  comparison: AlertComparison;
  threshold: number;
  minSample: number;
}

export interface StateBefore {
  state: AlertStateName;
  notifiedState: AlertStateName;
}

export interface Reading {
  value: number | null;
  sample: number;
}

export interface Evaluation {
  state: AlertStateName;
  /** The transition this evaluation made, if any. */
  transition: "firing" | "resolved" | null;
  belowMinSample: boolean;
  /** What to send now (the state reached since the last notification), if anything. */
  notify: "firing" | "resolved" | null;
  notifiedState: AlertStateName;
}

export function evaluateRule(
  rule: RuleCondition,
  before: StateBefore,
  reading: Reading,
  muted: boolean,
): Evaluation {
  const belowMinSample = reading.value === null || reading.sample < rule.minSample;
  let state = before.state;
  let transition: Evaluation["transition"] = null;
  if (!belowMinSample && reading.value !== null) {
    const breached = meetsCondition(reading.value, rule.comparison, rule.threshold);
    if (breached && state === "ok") {
      state = "firing";
      transition = "firing";
    } else if (!breached && state === "firing") {
      state = "ok";
      transition = "resolved";
    }
  }
  let notify: Evaluation["notify"] = null;
  let notifiedState = before.notifiedState;
  if (!muted && notifiedState !== state) {
    notify = state === "firing" ? "firing" : "resolved";
    notifiedState = state;
  }
  return { state, transition, belowMinSample, notify, notifiedState };
}

/**
 * The slots (minutes in production) an evaluation at `now` covers: every slot that has ended
 * since the last one evaluated, at most `maxCatchUp` of them (the most recent), oldest first.
 * A rule never evaluated starts with the last ended slot.
 */
export function slotsToEvaluate(
  lastEvaluated: Date | null,
  now: Date,
  slotMs: number,
  maxCatchUp: number,
): Date[] {
  const lastEnded = Math.floor(now.getTime() / slotMs) * slotMs - slotMs;
  const earliestAllowed = lastEnded - (maxCatchUp - 1) * slotMs;
  const first =
    lastEvaluated === null
      ? lastEnded
      : Math.max(lastEvaluated.getTime() + slotMs, earliestAllowed);
  const slots: Date[] = [];
  for (let slot = first; slot <= lastEnded; slot += slotMs) slots.push(new Date(slot));
  return slots;
}
