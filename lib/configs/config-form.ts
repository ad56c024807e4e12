/**
 * The config editor's form (palettes per role, trigger keywords, always-include names, policy
 * fields) to and from the JSON form. Pure: the editor runs it in the browser, and everything it
 * builds is checked by the schema on the server like pasted JSON. Fields the form does not show
 * (the catalogue, anything else) are kept from the config it started from.
 *
 * Palettes and keywords are one line each: `action: lookup_order, issue_refund`; a role whose
 * line says `abstain` abstains (null), an empty list after the colon is an empty palette.
 */

export interface ConfigFormFields {
  palettes: string;
  keywords: string;
  alwaysInclude: string;
  maxSafetyLevel: string;
  budgetUsd: string;
  includeUnknownCost: boolean;
  availableCapabilities: string;
  agentVisibleOnly: boolean;
  categories: string;
}

/** The form's fields, in the order issues are matched to them. */
export const FORM_FIELD_OF_CONFIG: readonly [prefix: string, field: keyof ConfigFormFields][] = [
  ["roleTools", "palettes"],
  ["triggerKeywords", "keywords"],
  ["alwaysInclude", "alwaysInclude"],
  ["policy.maxSafetyLevel", "maxSafetyLevel"],
  ["policy.budgetUsd", "budgetUsd"],
  ["policy.includeUnknownCost", "includeUnknownCost"],
  ["policy.availableCapabilities", "availableCapabilities"],
  ["policy.agentVisibleOnly", "agentVisibleOnly"],
  ["policy.categories", "categories"],
];

/** The form field an issue's config field belongs to (`roleTools.action[2]` → palettes). */
export function formFieldOf(configField: string): keyof ConfigFormFields | null {
  for (const [prefix, field] of FORM_FIELD_OF_CONFIG) {
    if (configField === prefix || configField.startsWith(`${prefix}.`)) return field;
    if (configField.startsWith(`${prefix}[`)) return field;
  }
  return null;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function list(value: unknown): string {
  return Array.isArray(value) ? value.filter((v) => typeof v === "string").join(", ") : "";
}

/** The form's fields filled from a config's JSON form. */
export function configToFormFields(config: unknown): ConfigFormFields {
  const json = record(config);
  const policy = record(json.policy);
  const lines = (map: unknown, abstainable: boolean) =>
    Object.entries(record(map))
      .map(([key, value]) =>
        abstainable && value === null ? `${key}: abstain` : `${key}: ${list(value)}`,
      )
      .join("\n");
  const text = (value: unknown) =>
    value === undefined || value === null ? "" : typeof value === "string" ? value : String(value);
  return {
    palettes: lines(json.roleTools, true),
    keywords: lines(json.triggerKeywords, false),
    alwaysInclude: list(json.alwaysInclude),
    maxSafetyLevel: text(policy.maxSafetyLevel),
    budgetUsd: text(policy.budgetUsd),
    includeUnknownCost: policy.includeUnknownCost !== false,
    availableCapabilities: list(policy.availableCapabilities),
    agentVisibleOnly: policy.agentVisibleOnly === true,
    categories: list(policy.categories),
  };
}

function splitNames(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

export interface FormReadIssue {
  field: keyof ConfigFormFields;
  message: string;
}

function readLines(
  text: string,
  field: keyof ConfigFormFields,
  abstainable: boolean,
): { map: Record<string, string[] | null>; issues: FormReadIssue[] } {
  const map: Record<string, string[] | null> = {};
  const issues: FormReadIssue[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      issues.push({
        field,
        message: `line ${index + 1}: must be "name: a, b, c" (a name, a colon, then names)`,
      });
      return;
    }
    const key = line.slice(0, colon).trim();
    const rest = line.slice(colon + 1).trim();
    if (key in map) {
      issues.push({ field, message: `line ${index + 1}: ${key} is already listed above` });
      return;
    }
    map[key] = abstainable && rest.toLowerCase() === "abstain" ? null : splitNames(rest);
  });
  return { map, issues };
}

function optionalList(text: string): string[] | undefined {
  const names = splitNames(text);
  return names.length === 0 ? undefined : names;
}

/**
 * The JSON form the fields describe, on top of `base` (whose other fields are kept), or the
 * lines the form could not read. Values are passed on as typed; the schema judges them.
 */
export function formFieldsToConfig(
  fields: ConfigFormFields,
  base: unknown,
): { ok: true; config: Record<string, unknown> } | { ok: false; issues: FormReadIssue[] } {
  const palettes = readLines(fields.palettes, "palettes", true);
  const keywords = readLines(fields.keywords, "keywords", false);
  const issues = [...palettes.issues, ...keywords.issues];
  const budget = fields.budgetUsd.trim();
  const budgetUsd = budget === "" ? undefined : Number(budget);
  if (budgetUsd !== undefined && !Number.isFinite(budgetUsd)) {
    issues.push({ field: "budgetUsd", message: "must be a number of US dollars, e.g. 0.05" });
  }
  if (issues.length > 0) return { ok: false, issues };
  const level = fields.maxSafetyLevel.trim();
  const policy: Record<string, unknown> = {
    ...record(record(base).policy),
    maxSafetyLevel:
      level === "" ? undefined : /^-?\d+(\.\d+)?$/.test(level) ? Number(level) : level,
    budgetUsd,
    includeUnknownCost: fields.includeUnknownCost ? undefined : false,
    availableCapabilities: optionalList(fields.availableCapabilities),
    agentVisibleOnly: fields.agentVisibleOnly ? true : undefined,
    categories: optionalList(fields.categories),
  };
  for (const key of Object.keys(policy)) if (policy[key] === undefined) delete policy[key];
  const config: Record<string, unknown> = { ...record(base) };
  // A field the base did not have stays absent while the form leaves it empty: absent and
  // empty can mean different things (no always-include list means the default one).
  const set = (key: string, value: unknown, empty: boolean) => {
    if (empty && !(key in config)) return;
    config[key] = value;
  };
  set("roleTools", palettes.map, Object.keys(palettes.map).length === 0);
  set("triggerKeywords", keywords.map, Object.keys(keywords.map).length === 0);
  const always = splitNames(fields.alwaysInclude);
  set("alwaysInclude", always, always.length === 0);
  if (Object.keys(policy).length > 0) config.policy = policy;
  else if (config.policy !== undefined) config.policy = null;
  return { ok: true, config };
}
