/**
 * A readable, structural diff between two versions of a routing configuration's JSON form
 * (lib/schemas/routing-config.ts): which names each role's palette gained and lost, which
 * trigger keywords changed, which policy fields moved, which catalogue entries were added,
 * removed or changed. Pure; the config pages and the history read it.
 *
 * It reads each top-level field by its shape rather than by a fixed list, so a field the JSON
 * form gains later still shows up: a list of names is compared as a set, a map of name lists
 * (palettes, keywords) key by key, a list of objects with a `name` (the catalogue) entry by
 * entry, an object of plain values (the policy) field by field, anything else as a whole.
 */
import { compareCodeUnits } from "@/lib/text-order";

/** One change inside a section. */
export type ConfigChange =
  /** Names a set gained or lost; `subject` is the role or tool the set belongs to, if any. */
  | { kind: "names"; subject: string | null; added: string[]; removed: string[] }
  /** A role, tool or entry that appeared or went away as a whole. */
  | { kind: "subject-added" | "subject-removed"; subject: string; detail: string }
  /** A value that changed: a policy field, a catalogue entry's field, an abstaining palette. */
  | { kind: "value"; subject: string | null; field: string | null; before: string; after: string };

export interface ConfigDiffSection {
  /** The JSON field, e.g. `roleTools`. */
  field: string;
  /** Its name on the pages, e.g. "Palettes per role". */
  label: string;
  changes: ConfigChange[];
}

/** The sections that differ, in the order of `SECTION_LABELS`, then any other field by name. */
export type ConfigDiff = ConfigDiffSection[];

/** The JSON form's fields with the words the pages use, in the order they are shown. */
export const SECTION_LABELS: Readonly<Record<string, string>> = {
  roleTools: "Palettes per role",
  alwaysInclude: "Always included",
  triggerKeywords: "Trigger keywords",
  lazyRouting: "Lazy routing",
  forcedChoiceStateKey: "Forced-choice state key",
  policy: "Policy",
  allowlist: "Allowlist",
  catalog: "Catalogue",
};

type Json = unknown;

type Shape = "names" | "name-map" | "fields" | "entries";

/** The known fields' shapes; any other field's shape is read from its value. */
const SECTION_SHAPES: Readonly<Record<string, Shape>> = {
  roleTools: "name-map",
  alwaysInclude: "names",
  triggerKeywords: "name-map",
  policy: "fields",
  catalog: "entries",
};

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNameList(value: Json): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isNameMap(value: Json): value is Record<string, string[] | null> {
  return (
    isRecord(value) && Object.values(value).every((names) => names === null || isNameList(names))
  );
}

function isNamedEntryList(value: Json): value is Record<string, Json>[] {
  return (
    Array.isArray(value) &&
    value.every((entry) => isRecord(entry) && typeof entry.name === "string")
  );
}

/** A value as one short line: strings quoted only when they could be mistaken for others. */
export function formatConfigValue(value: Json): string {
  if (value === undefined || value === null) return "none";
  if (typeof value === "string") return value === "" ? '""' : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (isNameList(value)) return value.length === 0 ? "[]" : value.join(", ");
  return JSON.stringify(value);
}

/** Sorted JSON, so key order never counts as a change. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

function sameValue(a: Json, b: Json): boolean {
  return canonical(a) === canonical(b);
}

function setDifference(before: readonly string[], after: readonly string[]) {
  const was = new Set(before);
  const is = new Set(after);
  return {
    added: [...is].filter((name) => !was.has(name)).sort(),
    removed: [...was].filter((name) => !is.has(name)).sort(),
  };
}

function diffNames(before: Json, after: Json, subject: string | null): ConfigChange[] {
  const { added, removed } = setDifference(
    isNameList(before) ? before : [],
    isNameList(after) ? after : [],
  );
  return added.length + removed.length > 0 ? [{ kind: "names", subject, added, removed }] : [];
}

function describeNames(names: string[] | null): string {
  if (names === null) return "abstains";
  return names.length === 0 ? "no names" : names.join(", ");
}

function diffNameMap(
  before: Record<string, string[] | null>,
  after: Record<string, string[] | null>,
): ConfigChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key): ConfigChange[] => {
    const was = before[key];
    const is = after[key];
    if (was === undefined && is !== undefined) {
      return [{ kind: "subject-added", subject: key, detail: describeNames(is) }];
    }
    if (is === undefined && was !== undefined) {
      return [{ kind: "subject-removed", subject: key, detail: describeNames(was) }];
    }
    if (was === null || is === null || was === undefined || is === undefined) {
      return was === is
        ? []
        : [
            {
              kind: "value",
              subject: key,
              field: null,
              before: describeNames(was ?? null),
              after: describeNames(is ?? null),
            },
          ];
    }
    return diffNames(was, is, key);
  });
}

function diffFields(
  before: Record<string, Json>,
  after: Record<string, Json>,
  subject: string | null,
): ConfigChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((field): ConfigChange[] => {
    const was = before[field];
    const is = after[field];
    if (sameValue(was, is)) return [];
    if (isNameList(was ?? []) && isNameList(is ?? [])) {
      // A list of names inside an object (capabilities, categories): say what moved.
      if ((was === undefined || was === null) !== (is === undefined || is === null)) {
        return [
          {
            kind: "value",
            subject,
            field,
            before: formatConfigValue(was),
            after: formatConfigValue(is),
          },
        ];
      }
      const changes = diffNames(was, is, subject === null ? field : `${subject}.${field}`);
      if (changes.length > 0) return changes;
    }
    return [
      {
        kind: "value",
        subject,
        field,
        before: formatConfigValue(was),
        after: formatConfigValue(is),
      },
    ];
  });
}

function diffEntries(before: Record<string, Json>[], after: Record<string, Json>[]) {
  const byName = (entries: Record<string, Json>[]) =>
    new Map(entries.map((entry) => [entry.name as string, entry]));
  const was = byName(before);
  const is = byName(after);
  const names = [...new Set([...was.keys(), ...is.keys()])].sort();
  return names.flatMap((name): ConfigChange[] => {
    const old = was.get(name);
    const now = is.get(name);
    if (!old && now) return [{ kind: "subject-added", subject: name, detail: describeEntry(now) }];
    if (old && !now)
      return [{ kind: "subject-removed", subject: name, detail: describeEntry(old) }];
    if (!old || !now) return [];
    return diffFields(old, now, name);
  });
}

function describeEntry(entry: Record<string, Json>): string {
  return Object.entries(entry)
    .filter(([key, value]) => key !== "name" && key !== "description" && value != null)
    .map(([key, value]) => `${key} ${formatConfigValue(value)}`)
    .join(", ");
}

function shapeOf(field: string, was: Json, is: Json): Shape | null {
  const known = SECTION_SHAPES[field];
  const fits: Record<Shape, (value: Json) => boolean> = {
    names: isNameList,
    "name-map": isNameMap,
    fields: isRecord,
    entries: isNamedEntryList,
  };
  if (known) return fits[known](was) && fits[known](is) ? known : null;
  const order: Shape[] = ["names", "entries", "name-map", "fields"];
  return order.find((shape) => fits[shape](was) && fits[shape](is)) ?? null;
}

function diffField(field: string, before: Json, after: Json): ConfigChange[] {
  if (sameValue(before, after)) return [];
  const emptyLike = (value: Json, other: Json) =>
    value === undefined || value === null ? (Array.isArray(other) ? [] : {}) : value;
  const was = emptyLike(before, after);
  const is = emptyLike(after, before);
  switch (shapeOf(field, was, is)) {
    case "names":
      return diffNames(was, is, null);
    case "entries":
      return diffEntries(was as Record<string, Json>[], is as Record<string, Json>[]);
    case "name-map":
      return diffNameMap(
        was as Record<string, string[] | null>,
        is as Record<string, string[] | null>,
      );
    case "fields":
      return diffFields(was as Record<string, Json>, is as Record<string, Json>, null);
    case null:
      break;
  }
  return [
    {
      kind: "value",
      subject: null,
      field: null,
      before: formatConfigValue(before),
      after: formatConfigValue(after),
    },
  ];
}

function sectionOrder(field: string): number {
  const index = Object.keys(SECTION_LABELS).indexOf(field);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/**
 * What changed from `before` to `after` (two JSON forms of a routing configuration); `before`
 * null means there was no earlier version, and every field of `after` reads as added.
 * Key order and the order of name lists never count as changes.
 */
export function diffRoutingConfigs(before: Json | null, after: Json): ConfigDiff {
  const was = isRecord(before) ? before : {};
  const is = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])].sort(
    (a, b) => sectionOrder(a) - sectionOrder(b) || compareCodeUnits(a, b),
  );
  return fields.flatMap((field) => {
    const changes = diffField(field, was[field], is[field]);
    return changes.length === 0 ? [] : [{ field, label: SECTION_LABELS[field] ?? field, changes }];
  });
}

/** One line per change, for plain-text places (audit detail, tests, notes). */
export function describeConfigChange(change: ConfigChange): string {
  switch (change.kind) {
    case "names": {
      const parts = [
        ...(change.added.length > 0 ? [`+ ${change.added.join(", ")}`] : []),
        ...(change.removed.length > 0 ? [`− ${change.removed.join(", ")}`] : []),
      ];
      return `${change.subject === null ? "" : `${change.subject}: `}${parts.join("; ")}`;
    }
    case "subject-added":
      return `${change.subject} added${change.detail ? ` (${change.detail})` : ""}`;
    case "subject-removed":
      return `${change.subject} removed${change.detail ? ` (${change.detail})` : ""}`;
    case "value": {
      const name = [change.subject, change.field].filter((part) => part !== null).join(".");
      return `${name === "" ? "" : `${name}: `}${change.before} → ${change.after}`;
    }
  }
}
