/**
 * A routing configuration as data (SPEC §10): the JSON form of the selection core's static
 * `RoutingConfig`, with no functions in it. Stored per tenant, pasted or uploaded by operators,
 * sent by CI pipelines, replayed by backtests. `lib/selection/config-json.ts` turns it into a
 * `RoutingConfig` and back; its `configVersion` is the version of the same configuration
 * written in code.
 *
 * What it holds, and what it does not:
 * - `roleTools`: role → tool names, or null to abstain for that role (same as leaving it out);
 *   [] makes the role palette abstain with an `empty_palette` warning.
 * - `alwaysInclude`: the names intent routing keeps on every narrowed turn and the allowlist
 *   stage re-adds (the core's allowlist is this list); left out, ["hydrate_context"].
 * - `triggerKeywords`: tool name → the keywords that make the intent classifier match it.
 * - `forcedChoiceStateKey`: the state key of an explicit forced-choice stamp.
 * - `policy`: safety ceiling, budget, capabilities, visibility, categories, maximum tools.
 * - `catalog`: the tool metadata the policy and the allowlist read.
 * - No lazy-routing names: lazy routing narrows to the names a router resolves from each
 *   turn's own input, so they are a per-turn input (`TurnInputs.allowedNames`), never part of
 *   a configuration; a fixed list of names is what `roleTools` and `policy` already express.
 * - No custom resolvers (palette or forced choice): code has no JSON form.
 *
 * Every object is strict (an unknown field is refused with its path) and every string, list
 * and map is bounded, and the whole configuration is at most 1 MiB as JSON.
 */
import { z } from "zod";
import { hasUnstorableText, LIMITS } from "./events";

export const ROUTING_CONFIG_LIMITS = {
  /** A tool name, role, capability, category, visibility or keyword. */
  name: LIMITS.toolName,
  /** Names in one list (a palette, always-include, capabilities, categories). */
  namesPerList: LIMITS.toolsPerList,
  roles: 100,
  /** Tools with trigger keywords. */
  keywordTools: LIMITS.toolsPerList,
  keywordsPerTool: 100,
  catalogEntries: LIMITS.toolsPerList,
  description: 4_000,
  /** `maxTools`: at most the number of tools one decision can offer. */
  maxTools: LIMITS.toolsPerList,
  /** The whole configuration, serialised as JSON. */
  jsonBytes: 1024 * 1024,
} as const;

export const SAFETY_LEVEL_NAMES = ["read", "write", "destructive"] as const;

/** Text PostgreSQL can store (no NUL, no half of a surrogate pair). */
const storable = (schema: z.ZodString) =>
  schema.refine((value) => !hasUnstorableText(value, new Set(), false), {
    message: "must be valid Unicode text without NUL (\\u0000) characters",
  });

const boundedName = (what: string) =>
  storable(
    z
      .string({ error: `expected ${what} (a string)` })
      .min(1, "must not be empty")
      .max(ROUTING_CONFIG_LIMITS.name, `at most ${ROUTING_CONFIG_LIMITS.name} characters`),
  );

const toolName = boundedName("a tool name");

const nameList = (what: string, max: number = ROUTING_CONFIG_LIMITS.namesPerList) =>
  z
    .array(boundedName(`a ${what}`), { error: `expected an array of ${what}s` })
    .max(max, `at most ${max} ${what}s`);

/** A map with bounded keys and at most `max` entries. */
const boundedMap = <V extends z.ZodType>(keyWhat: string, value: V, max: number) =>
  z
    .record(boundedName(`a ${keyWhat}`), value, {
      error: (issue) => {
        if (issue.code === "invalid_type") return `expected an object of ${keyWhat} → value`;
        if (issue.code === "invalid_key") {
          return `each ${keyWhat} must be 1 to ${ROUTING_CONFIG_LIMITS.name} characters of storable text`;
        }
        return undefined;
      },
    })
    .refine((map) => Object.keys(map).length <= max, {
      message: `at most ${max} entries`,
    });

/** zod's numbers are finite: NaN and ±Infinity are refused. */
const finiteNumber = (what: string) => z.number({ error: `expected ${what} (a finite number)` });

/** A strict object whose unknown fields are reported by name. */
const strictObject = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field(s) ${issue.keys.join(", ")} (not in the routing configuration format)`
        : undefined,
  });

export const routingPolicyJsonSchema = strictObject({
  maxSafetyLevel: z
    .union([z.enum(SAFETY_LEVEL_NAMES), finiteNumber("a safety rank")], {
      error: `expected one of ${SAFETY_LEVEL_NAMES.join(", ")} or a number`,
    })
    .nullable()
    .optional()
    .meta({
      description:
        "Highest safety level allowed: read < write < destructive, or a numeric rank (0, 1, 2 are the named levels). A tool with no declared level is not gated.",
    }),
  budgetUsd: finiteNumber("a cost in US dollars")
    .min(0, "must be >= 0")
    .nullable()
    .optional()
    .meta({ description: "Highest per-call cost allowed, in US dollars." }),
  includeUnknownCost: z
    .boolean({ error: "expected true or false" })
    .optional()
    .meta({ description: "Whether a tool of unknown cost passes the budget (default true)." }),
  availableCapabilities: nameList("capability").nullable().optional().meta({
    description: "Capabilities this deployment has; a tool requiring another one is dropped.",
  }),
  agentVisibleOnly: z
    .boolean({ error: "expected true or false" })
    .optional()
    .meta({ description: 'Keep only tools whose visibility is "agent" (default false).' }),
  categories: nameList("category")
    .nullable()
    .optional()
    .meta({ description: "Allowed categories; a tool with no category, or another, is dropped." }),
  maxTools: z
    .number({ error: "expected a whole number" })
    .int("expected a whole number")
    .min(1, "must be >= 1")
    .max(ROUTING_CONFIG_LIMITS.maxTools, `at most ${ROUTING_CONFIG_LIMITS.maxTools}`)
    .nullable()
    .optional()
    .meta({
      description:
        "The most tools the policy lets through, the forced tool counted first, then offered order.",
    }),
}).meta({ description: "Policy ceilings; none set (or null) means the policy stage abstains." });

export const catalogEntryJsonSchema = strictObject({
  name: toolName,
  description: storable(
    z
      .string({ error: "expected a string" })
      .max(
        ROUTING_CONFIG_LIMITS.description,
        `at most ${ROUTING_CONFIG_LIMITS.description} characters`,
      ),
  ).optional(),
  visibility: boundedName("a visibility").optional().meta({
    description: '"agent" (offered to the model; the default) or another value, e.g. "hidden".',
  }),
  costUsd: finiteNumber("a cost in US dollars").min(0, "must be >= 0").nullable().optional(),
  safetyLevel: z
    .union([boundedName("a safety level"), finiteNumber("a safety rank")], {
      error: "expected a safety level (read, write, destructive) or a number",
    })
    .nullable()
    .optional(),
  requiredCapability: boundedName("a capability").nullable().optional(),
  category: boundedName("a category").nullable().optional(),
}).meta({ description: "What the catalogue knows about one tool." });

export const routingConfigJsonSchema = strictObject({
  roleTools: boundedMap("role", nameList("tool name").nullable(), ROUTING_CONFIG_LIMITS.roles)
    .optional()
    .meta({
      description:
        "Role → tool names. null (or no entry) abstains for the role; [] abstains with an empty_palette warning.",
    }),
  alwaysInclude: nameList("tool name").optional().meta({
    description:
      'Names intent routing keeps on every narrowed turn and the allowlist re-adds. Default ["hydrate_context"].',
  }),
  triggerKeywords: boundedMap(
    "tool name",
    nameList("keyword", ROUTING_CONFIG_LIMITS.keywordsPerTool),
    ROUTING_CONFIG_LIMITS.keywordTools,
  )
    .optional()
    .meta({
      description:
        "Tool name → trigger keywords for intent routing. A tool without keywords is kept on every action turn.",
    }),
  forcedChoiceStateKey: boundedName("a state key").optional().meta({
    description: 'The state key of an explicit forced-choice stamp. Default "forced_tool_choice".',
  }),
  policy: routingPolicyJsonSchema.nullable().optional(),
  catalog: z
    .array(catalogEntryJsonSchema, { error: "expected an array of catalogue entries" })
    .max(
      ROUTING_CONFIG_LIMITS.catalogEntries,
      `at most ${ROUTING_CONFIG_LIMITS.catalogEntries} entries`,
    )
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((entry, index) => {
        if (seen.has(entry.name)) {
          ctx.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `duplicate tool name ${entry.name}: each tool has one entry`,
          });
        }
        seen.add(entry.name);
      });
    })
    .nullable()
    .optional()
    .meta({
      description:
        "Tool metadata for the policy and the allowlist. Left out (or null), both read it from the offered tools.",
    }),
}).superRefine((config, ctx) => {
  const bytes = new TextEncoder().encode(JSON.stringify(config)).length;
  if (bytes > ROUTING_CONFIG_LIMITS.jsonBytes) {
    ctx.addIssue({
      code: "custom",
      path: [],
      message: `at most ${ROUTING_CONFIG_LIMITS.jsonBytes} bytes as JSON (this one is ${bytes})`,
    });
  }
});

export type RoutingConfigJson = z.infer<typeof routingConfigJsonSchema>;
export type RoutingPolicyJson = z.infer<typeof routingPolicyJsonSchema>;
export type CatalogEntryJson = z.infer<typeof catalogEntryJsonSchema>;
