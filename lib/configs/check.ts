/**
 * Checks a routing configuration's JSON form against the schema (lib/schemas/routing-config.ts)
 * and computes its version the way the selection core does: `configVersion` of the config it
 * builds, so a config saved as JSON carries the version the same config has in code.
 */
import type { z } from "zod";
import { type RoutingConfigJson, routingConfigJsonSchema } from "@/lib/schemas/routing-config";
import { configVersion } from "@/lib/selection";
import { routingConfigFromJson } from "@/lib/selection/config-json";

/** One refusal: the field it concerns (`roleTools.action[2]`) and the rule it broke. */
export interface ConfigIssue {
  field: string;
  message: string;
}

export type ConfigCheck =
  | { ok: true; config: RoutingConfigJson; configVersion: string }
  | { ok: false; issues: ConfigIssue[] };

/** `roleTools.action[2]` from a zod path; `prefix` names where the config sits in a body. */
export function fieldName(path: readonly PropertyKey[], prefix = ""): string {
  let name = prefix;
  for (const part of path) {
    if (typeof part === "number") name += `[${part}]`;
    else name += name === "" ? String(part) : `.${String(part)}`;
  }
  return name === "" ? "config" : name;
}

/** The issues of a failed parse, each with its field; unknown keys each name themselves. */
export function issuesOf(error: z.ZodError, prefix = ""): ConfigIssue[] {
  return error.issues.flatMap((issue): ConfigIssue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        field: fieldName([...issue.path, key], prefix),
        message: "is not a field of a routing config (unknown fields are refused)",
      }));
    }
    return [{ field: fieldName(issue.path, prefix), message: issue.message }];
  });
}

/** The config when `input` is a valid JSON form, with its version; else every issue found. */
export function checkRoutingConfig(input: unknown, prefix = ""): ConfigCheck {
  const parsed = routingConfigJsonSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error, prefix) };
  return {
    ok: true,
    config: parsed.data,
    configVersion: configVersion(routingConfigFromJson(parsed.data)),
  };
}

/** One line per issue: "roleTools.action[2]: must not be empty". */
export function describeIssues(issues: readonly ConfigIssue[]): string {
  return issues.map((issue) => `${issue.field}: ${issue.message}`).join("; ");
}
