/**
 * A stored routing configuration's JSON form as the config page shows it: palettes per role,
 * always-include names, trigger keywords per tool, policy fields, catalogue entries, and any
 * other field as JSON. Pure; reads the stored JSON defensively (a version saved by an older
 * schema still shows).
 */
import { formatConfigValue, SECTION_LABELS } from "./config-diff";

export interface ConfigView {
  /** Role → names, or null where the role abstains; sorted by role. */
  palettes: { role: string; names: string[] | null }[];
  alwaysInclude: string[] | null;
  /** Tool → keywords, sorted by tool. */
  keywords: { tool: string; keywords: string[] }[];
  /** Policy field → value as text; empty when no policy is set. */
  policy: { field: string; value: string }[];
  catalog: CatalogRow[];
  /** Fields the page has no section for, as JSON. */
  other: { field: string; label: string; json: string }[];
}

export interface CatalogRow {
  name: string;
  description: string;
  visibility: string;
  costUsd: string;
  safetyLevel: string;
  requiredCapability: string;
  category: string;
}

const SHOWN = new Set(["roleTools", "alwaysInclude", "triggerKeywords", "policy", "catalog"]);

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : [];
}

const byKey =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** What the config page shows of `config` (a stored JSON form). */
export function prepareConfigView(config: unknown): ConfigView {
  const json = record(config);
  const palettes = Object.entries(record(json.roleTools))
    .map(([role, value]) => ({ role, names: value === null ? null : names(value) }))
    .sort(byKey((item) => item.role));
  const keywords = Object.entries(record(json.triggerKeywords))
    .map(([tool, value]) => ({ tool, keywords: names(value) }))
    .sort(byKey((item) => item.tool));
  const policy = Object.entries(record(json.policy))
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => ({ field, value: formatConfigValue(value) }))
    .sort(byKey((item) => item.field));
  const catalog = (Array.isArray(json.catalog) ? json.catalog : [])
    .map(record)
    .filter((entry) => typeof entry.name === "string")
    .map((entry) => ({
      name: entry.name as string,
      description: typeof entry.description === "string" ? entry.description : "",
      visibility: entry.visibility == null ? "agent" : formatConfigValue(entry.visibility),
      costUsd: entry.costUsd == null ? "" : formatConfigValue(entry.costUsd),
      safetyLevel: entry.safetyLevel == null ? "" : formatConfigValue(entry.safetyLevel),
      requiredCapability:
        entry.requiredCapability == null ? "" : formatConfigValue(entry.requiredCapability),
      category: entry.category == null ? "" : formatConfigValue(entry.category),
    }));
  const other = Object.entries(json)
    .filter(([field, value]) => !SHOWN.has(field) && value !== undefined)
    .map(([field, value]) => ({
      field,
      label: SECTION_LABELS[field] ?? field,
      json: JSON.stringify(value, null, 2),
    }));
  return {
    palettes,
    alwaysInclude: json.alwaysInclude === undefined ? null : names(json.alwaysInclude),
    keywords,
    policy,
    catalog,
    other,
  };
}
