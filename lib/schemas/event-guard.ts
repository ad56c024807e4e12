/**
 * A yes/no check of a wire event, equal in verdict to `eventSchema` and about ten times
 * cheaper: ingest runs it on every event and asks zod only about the events it refuses, for
 * zod's precise messages.
 *
 * The checks are derived from the zod schemas when this module loads — field names, which
 * fields are required, optional or nullable, enum and literal values, length and number
 * limits — and compiled into plain closures, so a wire change is made once, in `events.ts`.
 * Three rules are zod refinements that cannot be read from a schema's shape, and are applied
 * by name here: the timestamp window (`isIsoTimestamp`), storable text (the rule of
 * `hasUnstorableText`, checked on each string as the guard meets it rather than in a second
 * walk over the event, with the top-level fields exempt from its NUL rule) and the entries of
 * a decision's `tool_tokens` map (`isValidToolTokens`). A schema construct this
 * compiler does not know stops the module from loading, naming it, rather than letting the
 * guard drift from the schema. `event-guard.test.ts` compares the two verdicts on valid
 * events and on thousands of mutated ones.
 *
 * A valid event is returned as is: zod's parse of a valid event is an equal copy (strict
 * objects, no defaults, no transforms).
 */
import type { z } from "zod";
import {
  eventSchema,
  isIsoTimestamp,
  isStorableText,
  isValidToolTokens,
  NUL_ALLOWED_FIELDS,
  type TelemetryEvent,
  toolTokensSchema,
} from "./events";

type Check = (value: unknown) => boolean;
type Fields = Record<string, unknown>;

/**
 * What a string must be beyond its schema's bounds: anything (a schema's own rules only), or
 * storable (`isStorableText`, which `hasUnstorableText` requires of every string of an event),
 * or storable but for NUL (the top-level fields of `NUL_ALLOWED_FIELDS`).
 */
type TextRule = "any" | "storable" | "nul-allowed";

const TEXT_RULES: Record<TextRule, (value: string) => boolean> = {
  any: () => true,
  storable: (value) => isStorableText(value),
  "nul-allowed": (value) => isStorableText(value, true),
};

/** The rule of the strings inside a value checked with `text`: the NUL exemption is top-level only. */
const nestedRule = (text: TextRule): TextRule => (text === "any" ? "any" : "storable");

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
}

/** The zod internals the compiler reads: a schema's definition and its checks. */
interface SchemaDef {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  format?: string;
}

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as SchemaDef;

const isObject = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Length or value bounds from a schema's checks; `custom` refinements are counted apart. */
function boundsOf(def: SchemaDef, what: string) {
  let min = Number.NEGATIVE_INFINITY;
  let max = Number.POSITIVE_INFINITY;
  let integer = false;
  let custom = 0;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === "min_length" && c.minimum !== undefined) min = c.minimum;
    else if (c.check === "max_length" && c.maximum !== undefined) max = c.maximum;
    else if (c.check === "greater_than" && c.value !== undefined && c.inclusive) min = c.value;
    else if (c.check === "less_than" && c.value !== undefined && c.inclusive) max = c.value;
    else if (c.check === "number_format" && c.format === "safeint") integer = true;
    else if (c.check === "custom") custom += 1;
    else throw new Error(`event guard: cannot derive the "${c.check}" check of ${what}`);
  }
  return { min, max, integer, custom };
}

function compileString(def: SchemaDef, what: string, text: TextRule): Check {
  const { min, max, custom } = boundsOf(def, what);
  if (def.format === "datetime") {
    // The format and the timestamp window (a refinement) together; the format is ASCII.
    return (value) => typeof value === "string" && isIsoTimestamp(value);
  }
  if (def.format !== undefined || custom > 0) {
    throw new Error(`event guard: cannot derive the string rules of ${what}`);
  }
  const textOk = TEXT_RULES[text];
  return (value) =>
    typeof value === "string" && value.length >= min && value.length <= max && textOk(value);
}

function compileNumber(def: SchemaDef, what: string): Check {
  const { min, max, integer, custom } = boundsOf(def, what);
  if (!integer || custom > 0)
    throw new Error(`event guard: cannot derive the number rules of ${what}`);
  return (value) =>
    typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max;
}

function compileArray(def: SchemaDef, what: string, text: TextRule): Check {
  const { min, max, custom } = boundsOf(def, what);
  if (custom > 0 || !def.element)
    throw new Error(`event guard: cannot derive the rules of ${what}`);
  const item = compile(def.element, `${what}[]`, nestedRule(text));
  return (value) => {
    if (!Array.isArray(value) || value.length < min || value.length > max) return false;
    for (let i = 0; i < value.length; i++) if (!item(value[i])) return false;
    return true;
  };
}

/**
 * A strict object: every own or inherited enumerable key is a field of the schema (zod's
 * strict rule), and every field passes its check. The object's own refinements are not read:
 * the one the event schemas have, storable text, is the rule their strings are compiled with
 * (`text`; the fields named in `nulAllowed` take "nul-allowed" where `text` is "storable").
 */
function compileObject(
  def: SchemaDef,
  what: string,
  text: TextRule,
  nulAllowed: ReadonlySet<string> = new Set(),
): Check {
  if (!def.shape || def.catchall === undefined || defOf(def.catchall).type !== "never") {
    throw new Error(`event guard: ${what} is not a strict object`);
  }
  const shape = def.shape;
  const known: ReadonlySet<string> = new Set(Object.keys(shape));
  const keys = [...known];
  const ruleOf = (key: string): TextRule =>
    text !== "any" && nulAllowed.has(key) ? "nul-allowed" : nestedRule(text);
  const checks = keys.map((key) => compile(shape[key] as z.ZodType, `${what}.${key}`, ruleOf(key)));
  const count = keys.length;
  return (value) => {
    if (!isObject(value)) return false;
    for (const key in value) if (!known.has(key)) return false;
    for (let i = 0; i < count; i++) {
      if (!(checks[i] as Check)(value[keys[i] as string])) return false;
    }
    return true;
  };
}

/**
 * The check zod's `schema` makes, as a plain closure; throws, naming the place, for a rule it
 * cannot derive (exported for tests).
 */
export function deriveCheck(schema: z.ZodType, what = "schema"): Check {
  return compile(schema, what, "any");
}

function compile(schema: z.ZodType, what: string, text: TextRule): Check {
  if (schema === toolTokensSchema) return isValidToolTokens;
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return compileString(def, what, text);
    case "number":
      return compileNumber(def, what);
    case "boolean":
      return (value) => typeof value === "boolean";
    case "enum":
    case "literal": {
      const allowed: ReadonlySet<unknown> = new Set(
        def.type === "enum" ? Object.values(def.entries ?? {}) : def.values,
      );
      return (value) => allowed.has(value);
    }
    case "nullable": {
      const inner = compile(def.innerType as z.ZodType, what, text);
      return (value) => value === null || inner(value);
    }
    case "optional": {
      const inner = compile(def.innerType as z.ZodType, what, text);
      return (value) => value === undefined || inner(value);
    }
    case "array":
      return compileArray(def, what, text);
    case "object":
      return compileObject(def, what, nestedRule(text));
    default:
      throw new Error(`event guard: cannot derive a check for ${what} (zod type "${def.type}")`);
  }
}

/**
 * One compiled check per event type, keyed by the value of its `type` field: its fields with
 * storable text, the top-level fields of `NUL_ALLOWED_FIELDS` exempt from the NUL rule.
 */
const BY_TYPE = new Map<unknown, Check>(
  eventSchema.options.map((schema) => {
    const type = schema.shape.type.value;
    const nulAllowed: ReadonlySet<string> = new Set(NUL_ALLOWED_FIELDS[type]);
    return [type, compileObject(defOf(schema), type, "storable", nulAllowed)];
  }),
);

/** True exactly when `eventSchema.safeParse(value)` succeeds. */
export function isValidEvent(value: unknown): value is TelemetryEvent {
  if (!isObject(value)) return false;
  const check = BY_TYPE.get(value.type);
  return check?.(value) === true;
}
