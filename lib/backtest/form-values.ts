/**
 * The new-backtest form's values (pure): what it starts with (a tenant and a stored config from
 * the configs pages, or a backtest to run again), the stored configs it offers, and the window
 * a submitted form names.
 */
import { formatUtc } from "@/lib/dashboard/format";
import type { BacktestForm, BacktestWindow } from "@/lib/schemas/backtest-pages";
import { DEFAULT_THRESHOLD_PERCENT } from "@/lib/schemas/rollouts";
import type { Backtest } from "./types";

/** One of a tenant's stored configs, as the form offers it. */
export interface StoredConfigChoice {
  version: string;
  label: string;
}

export interface BacktestFormValues {
  tenant: string | undefined;
  roles: string[];
  window: BacktestWindow;
  /** A custom window's bounds (shown in the browser's own time once it runs there). */
  fromIso?: string;
  toIso?: string;
  candidateSource: "stored" | "pasted";
  candidateVersion?: string;
  candidateJson?: string;
  baselineSource: "recorded" | "stored" | "pasted";
  baselineVersion?: string;
  baselineJson?: string;
  thresholdPercent: string;
}

/** A stored config as a choice: "r3 · 0123456789ab · 2026-01-31 12:00:00 UTC · ops@…". */
export function storedConfigChoice(config: {
  revision: number;
  configVersion: string;
  savedAt: Date;
  authorName?: string | null;
}): StoredConfigChoice {
  const author = config.authorName ? ` · ${config.authorName}` : "";
  return {
    version: config.configVersion,
    label: `r${config.revision} · ${config.configVersion.slice(0, 12)} · ${formatUtc(config.savedAt)}${author}`,
  };
}

/** A fresh form: the last 7 days, the stored config asked for (or the newest), recorded baseline. */
export function initialFormValues(
  tenant: string | undefined,
  configVersion: string | undefined,
  hasStoredConfigs: boolean,
): BacktestFormValues {
  return {
    tenant,
    roles: [],
    window: "7d",
    candidateSource: configVersion !== undefined || hasStoredConfigs ? "stored" : "pasted",
    ...(configVersion !== undefined ? { candidateVersion: configVersion } : {}),
    baselineSource: "recorded",
    thresholdPercent: String(DEFAULT_THRESHOLD_PERCENT),
  };
}

/** The form filled from a backtest, to run it again (configs pasted as they were stored). */
export function rerunFormValues(backtest: Backtest): BacktestFormValues {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return {
    tenant: backtest.tenantId,
    roles: [...backtest.roles],
    window: "custom",
    fromIso: backtest.from.toISOString(),
    toIso: backtest.to.toISOString(),
    candidateSource: "pasted",
    candidateJson: json(backtest.candidate),
    baselineSource: backtest.baseline === null ? "recorded" : "pasted",
    ...(backtest.baseline === null ? {} : { baselineJson: json(backtest.baseline) }),
    thresholdPercent: String(backtest.thresholdPercent),
  };
}

const SPAN_MS: Record<Exclude<BacktestWindow, "custom">, number> = {
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
};

/**
 * The instants a submitted form names: a span ending `now`, or the custom bounds as given
 * (the backtest's own schema then checks order and length, naming the field).
 */
export function windowOf(
  form: Pick<BacktestForm, "window"> & Partial<Pick<BacktestForm, "from" | "to">>,
  now: Date,
): { from: string | undefined; to: string | undefined } {
  if (form.window === "custom") return { from: form.from, to: form.to };
  return {
    from: new Date(now.getTime() - SPAN_MS[form.window]).toISOString(),
    to: now.toISOString(),
  };
}
