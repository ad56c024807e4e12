/**
 * URL state of the backtest pages and their download, and the fields of the new-backtest form
 * (SPEC §10). As on the other dashboard pages, a malformed URL parameter falls back to its
 * default on a page and is refused by the download; a form field that breaks its rule is named
 * beside the field.
 */
import { z } from "zod";
import {
  direction,
  MAX_PAGE,
  optionalText,
  param,
  RANGE_PRESETS,
  sortDirections,
  tenantParam,
  text,
} from "@/lib/schemas/dashboard";
import { LIMITS } from "@/lib/schemas/events";

/** Longest backtest id a URL may carry (ids are UUIDs; anything longer names no backtest). */
export const BACKTEST_ID_MAX = 100;
export const backtestIdParam = param(text(BACKTEST_ID_MAX).min(1, "must not be empty"));

/** Backtests per page of `/backtests`. */
export const BACKTESTS_PAGE_SIZE = 50;

/** `/backtests`: the backtests of the viewer's tenants, optionally of one tenant, a page at a time. */
export const backtestsSearchSchema = z.object({
  tenant: tenantParam,
  page: param(z.coerce.number().int().min(1).max(MAX_PAGE)).default(1),
});
export type BacktestsSearch = z.infer<typeof backtestsSearchSchema>;

/**
 * `/backtests/new`: the tenant and a stored config version to start from (links from the
 * configs pages), or a backtest whose settings are copied (Run again).
 */
export const newBacktestSearchSchema = z.object({
  tenant: tenantParam,
  config: optionalText(200),
  rerun: optionalText(BACKTEST_ID_MAX),
});
export type NewBacktestSearch = z.infer<typeof newBacktestSearchSchema>;

/** Columns the per-tool table can be sorted by. */
export const BACKTEST_TOOL_SORT_KEYS = [
  "tool",
  "offered",
  "called",
  "candidateHarmful",
  "recordedHarmful",
  "baselineHarmful",
  "candidateBound",
  "tokens",
] as const;
export type BacktestToolSortKey = (typeof BACKTEST_TOOL_SORT_KEYS)[number];
/** The tool name sorts A→Z by default, counts largest first. */
export const BACKTEST_TOOL_SORT_DIRECTIONS = sortDirections(BACKTEST_TOOL_SORT_KEYS, ["tool"]);

const toolSortFields = {
  /** Costliest harms first: the calls the candidate would have lost. */
  sort: param(z.enum(BACKTEST_TOOL_SORT_KEYS)).default("candidateHarmful"),
  dir: direction,
};

/** `/backtests/<id>`: the per-tool table's order. */
export const backtestSearchSchema = z.object(toolSortFields);
export type BacktestSearch = z.infer<typeof backtestSearchSchema>;

export const BACKTEST_EXPORT_TABLES = ["tools", "roles"] as const;
export type BacktestExportTable = (typeof BACKTEST_EXPORT_TABLES)[number];

/** `/api/export/backtest?id=…`: the per-tool (default) or per-role result of one backtest. */
export const backtestExportSearchSchema = z.object({
  id: backtestIdParam,
  /** Optional: the backtest's tenant, checked like every download's (another one: 404). */
  tenant: tenantParam,
  table: param(z.enum(BACKTEST_EXPORT_TABLES)).default("tools"),
  ...toolSortFields,
});
export type BacktestExportSearch = z.infer<typeof backtestExportSearchSchema>;

/** Where the new-backtest form takes a config from. */
export const CANDIDATE_SOURCES = ["stored", "pasted"] as const;
export const BASELINE_SOURCES = ["recorded", "stored", "pasted"] as const;
/** The window of a new backtest: a span ending now, or two instants. */
export const BACKTEST_WINDOWS = [...RANGE_PRESETS, "custom"] as const;
export type BacktestWindow = (typeof BACKTEST_WINDOWS)[number];

/** Most characters of a pasted config (a catalogue of a thousand described tools fits). */
export const CONFIG_JSON_MAX = 1_000_000;

const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const formText = (max: number) => z.preprocess(blankToUndefined, text(max).optional());

/**
 * The new-backtest form as its fields arrive (text fields; `roles` repeated). Which config
 * field is needed depends on its source; the configs themselves and the window's rule are
 * checked afterwards, by the backtest's own schema and the config JSON schema.
 */
export const backtestFormSchema = z
  .object({
    tenant: z.preprocess(blankToUndefined, text(LIMITS.tenantId)),
    roles: z.array(text(LIMITS.label)).default([]),
    window: z.enum(BACKTEST_WINDOWS, { error: "Window must be one of the choices" }),
    /** ISO instants of a custom window (the browser turns its local inputs into these). */
    from: formText(40),
    to: formText(40),
    candidateSource: z.enum(CANDIDATE_SOURCES, {
      error: "Candidate must come from a stored config or a pasted one",
    }),
    candidateVersion: formText(200),
    candidateJson: formText(CONFIG_JSON_MAX),
    baselineSource: z
      .enum(BASELINE_SOURCES, { error: "Baseline must be recorded, stored or pasted" })
      .default("recorded"),
    baselineVersion: formText(200),
    baselineJson: formText(CONFIG_JSON_MAX),
    thresholdPercent: formText(20),
  })
  .superRefine((form, ctx) => {
    const need = (field: keyof typeof form, message: string) => {
      if (form[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message });
    };
    if (form.window === "custom") {
      need("from", "From is required for a custom window: a date and time");
      need("to", "To is required for a custom window: a date and time");
    }
    if (form.candidateSource === "stored")
      need("candidateVersion", "Candidate: pick one of the tenant's stored configs");
    else need("candidateJson", "Candidate: paste a routing config (JSON)");
    if (form.baselineSource === "stored")
      need("baselineVersion", "Baseline: pick one of the tenant's stored configs");
    if (form.baselineSource === "pasted")
      need("baselineJson", "Baseline: paste a routing config (JSON)");
  });
export type BacktestForm = z.infer<typeof backtestFormSchema>;

/** The form's cancel button: which backtest. */
export const backtestCancelSchema = z.object({ id: backtestIdParam });
