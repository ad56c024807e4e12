/**
 * The first few zod issues of a refused value, found without letting zod build one issue per
 * element of every long array. A decision whose `offered` and `selected` hold 1,000 numbers
 * each is 2,000 issues to zod — milliseconds per event, seconds per batch — while the sender
 * needs only the first few to see what is wrong. Pure: no I/O.
 *
 * 1. Parse a copy with every array cut to its first `CLIP` items: the issues of those items,
 *    and of every other field, at the cost of a small event; plus the length rules of the
 *    arrays that were cut.
 * 2. If the copy is valid, check the cut-off items one at a time against the array's element
 *    schema (recursively bounded), stopping once `max` issues are found.
 * 3. If every item is valid on its own, what is left are whole-array and whole-event rules
 *    (a length limit, text that cannot be stored): parse the value itself.
 */
import { z } from "zod";

/** Items of each array that the first, cheap parse looks at. */
const CLIP = 8;

type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

interface CutArray {
  path: Path;
  items: readonly unknown[];
}

/**
 * Levels below which `clipArrays` copies nothing. The wire format nests four levels deep
 * (`trace[1].kept[0]`); zod refuses anything deeper at the first level its schema does not
 * expect, without looking further in, so a value 20,000 arrays deep is left as it is rather
 * than walked (which would exhaust the stack).
 */
const MAX_DEPTH = 32;

/** A copy of `value` with every array cut to `CLIP` items; the cut arrays are noted in `cut`. */
function clipArrays(value: unknown, path: Path, cut: CutArray[]): unknown {
  if (path.length >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    if (value.length > CLIP) cut.push({ path, items: value });
    const head = value.length > CLIP ? value.slice(0, CLIP) : value;
    return head.map((item, index) => clipArrays(item, [...path, index], cut));
  }
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a "__proto__" key from JSON.parse stays a plain field of the copy.
      Object.defineProperty(copy, key, {
        value: clipArrays(item, [...path, key], cut),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}

/** The schema that validates the value at `path` inside `root`, or null when it cannot be told. */
function schemaAt(schema: z.ZodType, root: unknown, path: Path): z.ZodType | null {
  let current: z.ZodType = schema;
  let value = root;
  for (const part of [...path, null]) {
    for (;;) {
      if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
        current = current.unwrap() as z.ZodType;
      } else if (current instanceof z.ZodDiscriminatedUnion) {
        const key = current._zod.def.discriminator;
        const tag =
          value !== null && typeof value === "object"
            ? (value as Record<string, unknown>)[key]
            : undefined;
        const option = (current.options as z.ZodType[]).find(
          (candidate) =>
            candidate instanceof z.ZodObject &&
            (candidate.shape[key] as z.ZodType | undefined)?.safeParse(tag).success,
        );
        if (!option) return null;
        current = option;
      } else {
        break;
      }
    }
    if (part === null) return current;
    if (current instanceof z.ZodArray && typeof part === "number") {
      current = current.element as z.ZodType;
    } else if (current instanceof z.ZodObject && typeof part === "string") {
      const field = current.shape[part] as z.ZodType | undefined;
      if (!field) return null;
      current = field;
    } else {
      return null;
    }
    value =
      value !== null && typeof value === "object"
        ? (value as Record<PropertyKey, unknown>)[part]
        : undefined;
  }
  return current;
}

const lengthOnlySchemas = new WeakMap<z.ZodArray, z.ZodType>();

/** The same array schema, checks and messages included, with its items taken as they are. */
function lengthOnly(array: z.ZodArray): z.ZodType {
  let schema = lengthOnlySchemas.get(array);
  if (!schema) {
    schema = array.clone({ ...array._zod.def, element: z.unknown() });
    lengthOnlySchemas.set(array, schema);
  }
  return schema;
}

/** The length rules of the cut arrays (`at most 1000 tool names`), which the cut copy hides. */
function lengthIssues(schema: z.ZodType, value: unknown, cut: readonly CutArray[]): Issue[] {
  const issues: Issue[] = [];
  for (const { path, items } of cut) {
    const array = schemaAt(schema, value, path);
    if (!(array instanceof z.ZodArray)) continue;
    const parsed = lengthOnly(array).safeParse(items);
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) {
      issues.push({ ...issue, path: [...path, ...issue.path] } as Issue);
    }
  }
  return issues;
}

/** `["trace", 3, "kept", 7]` → `trace.*.kept.*`: the field, whatever the indexes. */
const fieldOf = (path: readonly PropertyKey[]) =>
  path.map((part) => (typeof part === "number" ? "*" : String(part))).join(".");

/**
 * At most `max` of `issues`, in their order, naming as many different fields as it can: the
 * first issue of each field is kept before a second issue of any field.
 */
export function firstOfEachField<T extends { path: readonly PropertyKey[] }>(
  issues: readonly T[],
  max: number,
): T[] {
  if (issues.length <= max) return [...issues];
  const chosen = new Set<T>();
  const fields = new Set<string>();
  for (const issue of issues) {
    if (chosen.size >= max) break;
    const field = fieldOf(issue.path);
    if (fields.has(field)) continue;
    fields.add(field);
    chosen.add(issue);
  }
  for (const issue of issues) {
    if (chosen.size >= max) break;
    chosen.add(issue);
  }
  return issues.filter((issue) => chosen.has(issue));
}

/**
 * At most `max` issues of `value` against `schema`, in zod's order within each step and
 * naming as many different fields as it can; an empty list when the value is valid.
 */
export function boundedIssues(schema: z.ZodType, value: unknown, max: number): Issue[] {
  const cut: CutArray[] = [];
  const clipped = clipArrays(value, [], cut);
  const first = schema.safeParse(clipped);
  const lengths = lengthIssues(schema, value, cut);
  if (!first.success || lengths.length > 0) {
    return firstOfEachField([...(first.success ? [] : first.error.issues), ...lengths], max);
  }
  if (cut.length === 0) return [];

  const found: Issue[] = [];
  for (const { path, items } of cut) {
    const element = schemaAt(schema, value, [...path, 0]);
    if (!element) break;
    for (let index = CLIP; index < items.length && found.length < max; index++) {
      for (const issue of boundedIssues(element, items[index], max - found.length)) {
        found.push({ ...issue, path: [...path, index, ...issue.path] } as Issue);
      }
    }
    if (found.length >= max) return found;
  }
  if (found.length > 0) return found;
  const whole = schema.safeParse(value);
  return whole.success ? [] : firstOfEachField(whole.error.issues, max);
}
