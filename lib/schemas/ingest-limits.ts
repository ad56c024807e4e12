/**
 * Ingest limits (docs/LIMITS.md): events per second with a burst, and requests in progress at
 * once, per tenant and per API key. Defaults come from the environment (`lib/env.ts`); an admin
 * may store a tenant's own values (`tenant_ingest_limits`), each one or all of them.
 */
import { z } from "zod";

/** One set of limits: for a tenant (all its keys together) or for each of its keys. */
export interface IngestLimitSet {
  /** Events (decisions, outcomes, OTLP spans) admitted per second. */
  eventsPerSecond: number;
  /** Events a full bucket admits at once, above the per-second rate. */
  burst: number;
  /** Ingest requests in progress at once (from key check to answer). */
  concurrentRequests: number;
}

/** The limits that apply to one request: its tenant's and its key's. */
export interface IngestLimits {
  tenant: IngestLimitSet;
  key: IngestLimitSet;
}

export const INGEST_LIMIT_FIELDS = [
  "tenantEventsPerSecond",
  "tenantBurst",
  "tenantConcurrentRequests",
  "keyEventsPerSecond",
  "keyBurst",
  "keyConcurrentRequests",
] as const;
export type IngestLimitField = (typeof INGEST_LIMIT_FIELDS)[number];

/** A tenant's stored values; null takes the default. */
export type IngestLimitOverrides = Record<IngestLimitField, number | null>;

export const NO_OVERRIDES: IngestLimitOverrides = {
  tenantEventsPerSecond: null,
  tenantBurst: null,
  tenantConcurrentRequests: null,
  keyEventsPerSecond: null,
  keyBurst: null,
  keyConcurrentRequests: null,
};

/** Bounds of each value, shared by the environment, the admin form and the CLI. */
export const INGEST_LIMIT_BOUNDS = {
  eventsPerSecond: { min: 1, max: 10_000_000 },
  burst: { min: 1, max: 100_000_000 },
  concurrentRequests: { min: 1, max: 10_000 },
} as const satisfies Record<keyof IngestLimitSet, { min: number; max: number }>;

/** Which bound and wording each stored field has. */
export const INGEST_LIMIT_FIELD_INFO: Record<
  IngestLimitField,
  { scope: "tenant" | "key"; measure: keyof IngestLimitSet; label: string }
> = {
  tenantEventsPerSecond: {
    scope: "tenant",
    measure: "eventsPerSecond",
    label: "Events per second, all keys",
  },
  tenantBurst: { scope: "tenant", measure: "burst", label: "Burst in events, all keys" },
  tenantConcurrentRequests: {
    scope: "tenant",
    measure: "concurrentRequests",
    label: "Requests in progress, all keys",
  },
  keyEventsPerSecond: {
    scope: "key",
    measure: "eventsPerSecond",
    label: "Events per second, each key",
  },
  keyBurst: { scope: "key", measure: "burst", label: "Burst in events, each key" },
  keyConcurrentRequests: {
    scope: "key",
    measure: "concurrentRequests",
    label: "Requests in progress, each key",
  },
};

/** A whole number within the bounds of `measure`. */
export function limitValueSchema(measure: keyof IngestLimitSet) {
  const { min, max } = INGEST_LIMIT_BOUNDS[measure];
  return z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max.toLocaleString("en")}`);
}

/** One form or CLI value: empty or left out means "the default" (null). */
function overrideSchema(measure: keyof IngestLimitSet) {
  return z.preprocess(
    (value) =>
      value === undefined || (typeof value === "string" && value.trim() === "") ? null : value,
    limitValueSchema(measure).nullable(),
  );
}

/** The admin's form (Settings → Ingest keys → Ingest limits): a tenant and its six values. */
export const ingestLimitsFormSchema = z.object({
  // Not "tenant": the keys page's create form has a field of that name (ids, labels).
  limitsTenant: z.string().min(1, "is required"),
  ...(Object.fromEntries(
    INGEST_LIMIT_FIELDS.map((field) => [
      field,
      overrideSchema(INGEST_LIMIT_FIELD_INFO[field].measure),
    ]),
  ) as Record<IngestLimitField, ReturnType<typeof overrideSchema>>),
});

/** The limits that apply: each stored value, or the default where none is stored. */
export function resolveIngestLimits(
  defaults: IngestLimits,
  overrides: IngestLimitOverrides,
): IngestLimits {
  return {
    tenant: {
      eventsPerSecond: overrides.tenantEventsPerSecond ?? defaults.tenant.eventsPerSecond,
      burst: overrides.tenantBurst ?? defaults.tenant.burst,
      concurrentRequests: overrides.tenantConcurrentRequests ?? defaults.tenant.concurrentRequests,
    },
    key: {
      eventsPerSecond: overrides.keyEventsPerSecond ?? defaults.key.eventsPerSecond,
      burst: overrides.keyBurst ?? defaults.key.burst,
      concurrentRequests: overrides.keyConcurrentRequests ?? defaults.key.concurrentRequests,
    },
  };
}
