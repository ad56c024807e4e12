/**
 * A rule's history as its page shows it: firings and resolutions with the value that crossed
 * the threshold, and deliveries with every attempt (time, HTTP status, latency, error). Pure:
 * rows from `ruleHistory` / `ruleDeliveries` in, serialisable rows out.
 */
import { formatRuleValue } from "./rule-view";

export interface TransitionRow {
  id: string;
  kind: string;
  /** The evaluated minute, ISO. */
  minute: string;
  /** "3.1 % over 312 outcomes". */
  value: string;
  threshold: string;
  muted: boolean;
}

export interface AttemptRow {
  attempt: number;
  at: string;
  /** "200", "503", or "no answer". */
  status: string;
  ok: boolean;
  latency: string;
  error: string | null;
}

export interface DeliveryRow {
  id: string;
  kind: string;
  channel: string;
  channelUrl: string;
  status: string;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  attempts: AttemptRow[];
}

export function prepareTransitionRows(
  metric: string,
  sampleLabel: string,
  events: readonly {
    id: number | string;
    kind: string;
    value: number | null;
    sample: number;
    threshold: number;
    minute: Date;
    muted: boolean;
  }[],
): TransitionRow[] {
  return events.map((event) => ({
    id: String(event.id),
    kind: event.kind,
    minute: event.minute.toISOString(),
    value: `${formatRuleValue(metric, event.value)} over ${event.sample.toLocaleString("en-US")} ${sampleLabel}`,
    threshold: formatRuleValue(metric, event.threshold),
    muted: event.muted,
  }));
}

export function formatLatency(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function prepareDeliveryRows(
  deliveries: readonly {
    id: string;
    kind: string;
    status: string;
    channelKind: string;
    channelUrl: string;
    createdAt: Date;
    deliveredAt: Date | null;
    nextAttemptAt: Date | null;
    attemptLog: readonly {
      attempt: number;
      at: Date;
      statusCode: number | null;
      latencyMs: number;
      error: string | null;
    }[];
  }[],
): DeliveryRow[] {
  return deliveries.map((delivery) => ({
    id: delivery.id,
    kind: delivery.kind,
    channel: delivery.channelKind === "slack" ? "Slack" : "webhook",
    channelUrl: delivery.channelUrl,
    status: delivery.status,
    createdAt: delivery.createdAt.toISOString(),
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    nextAttemptAt:
      delivery.status === "pending" ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
    attempts: delivery.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      at: attempt.at.toISOString(),
      status: attempt.statusCode === null ? "no answer" : String(attempt.statusCode),
      ok: attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300,
      latency: formatLatency(attempt.latencyMs),
      error: attempt.error,
    })),
  }));
}
