/**
 * zod's issues with a wire event, put the way Routelens reports them — one entry per bad field
 * with a short rule — for the ingest API's per-event errors and the telemetry client's
 * `InvalidEventError` alike, with the path rendered by `formatPath`.
 */
import type { z } from "zod";

export interface EventIssue {
  path: readonly PropertyKey[];
  message: string;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const part of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

export function describeEventIssues(
  raw: unknown,
  issues: readonly z.core.$ZodIssue[],
): EventIssue[] {
  return issues.flatMap((issue): EventIssue[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...issue.path, key],
        message: "unknown field (not in wire format v1)",
      }));
    }
    const { path } = issue;
    if (issue.code === "invalid_union" && "discriminator" in issue) {
      return [{ path, message: 'expected "tool_routing_decision" or "tool_call_outcome"' }];
    }
    if (path.length > 0 && valueAt(raw, path) === undefined) return [{ path, message: "required" }];
    return [{ path, message: issue.message.replace(/^Invalid input: /, "") }];
  });
}

/**
 * Renders an issue path: within a batch as `batch[3].trace[1].kept` (`index` 3), on its own
 * as `trace[1].kept`, and the event itself as `batch[3]` or `(event)`.
 */
export function formatPath(index: number | null, path: readonly PropertyKey[]): string {
  let out = index === null ? "" : `batch[${index}]`;
  for (const part of path) {
    out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  }
  return out || "(event)";
}
