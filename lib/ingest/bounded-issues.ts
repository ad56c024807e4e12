/**
 * The first few zod issues of a refused value, found without letting zod build one issue per
 * element of every long array. A decision whose `offered` and `selected` hold 1,000 numbers
 * each is 2,000 issues to zod — milliseconds per event, seconds per batch — while the sender
 * needs only the first few to see what is wrong. Pure: no I/O.
 *
 * 1. Parse a copy with every array cut to its first `CLIP` items: the issues of those items,
 *    and of every other field, at the cost of a small event.
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

/** A copy of `value` with every array cut to `CLIP` items; the cut arrays are noted in `cut`. */
function clipArrays(value: unknown, path: Path, cut: CutArray[]): unknown {
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

/**
 * At most `max` issues of `value` against `schema`, in zod's order within each step; an
 * empty list when the value is valid.
 */
export function boundedIssues(schema: z.ZodType, value: unknown, max: number): Issue[] {
  const cut: CutArray[] = [];
  const clipped = clipArrays(value, [], cut);
  const first = schema.safeParse(clipped);
  if (!first.success) return first.error.issues.slice(0, max);
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
  return whole.success ? [] : whole.error.issues.slice(0, max);
}
