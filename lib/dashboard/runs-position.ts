/**
 * Where a page of the runs list starts: at the first or the last row of the order, or just
 * after or before the key of one row. Keys travel in the URL (`after`, `before`) as base64url
 * JSON of `[sort, value, tenant, run id]`, so a page is a link like any other view's state, and
 * a key read back is checked as strictly as an ingested value: a key that does not fit the
 * sort's column type is refused here, never sent to PostgreSQL.
 */

import type { RunSortKey } from "@/lib/schemas/dashboard";
import { LIMITS } from "@/lib/schemas/events";

/** The key of one row in one order: the sort column's value as text ("" when sorting by tenant or run id), then the row's identity. */
export interface RunKey {
  value: string;
  tenantId: string;
  runId: string;
}

export type RunsPosition =
  | { kind: "first" }
  | { kind: "last" }
  | { kind: "after"; key: RunKey }
  | { kind: "before"; key: RunKey };

/** How each sort key's value is written as text, and the PostgreSQL type it is read back as. */
export type RunSortValueType = "timestamptz" | "bigint" | null;

export const RUN_SORT_VALUE_TYPES: Readonly<Record<RunSortKey, RunSortValueType>> = {
  lastSeen: "timestamptz",
  firstSeen: "timestamptz",
  runId: null,
  tenant: null,
  decisions: "bigint",
  droppedTokens: "bigint",
  reinstatements: "bigint",
  emptyPaletteWarnings: "bigint",
  stageErrors: "bigint",
  harmfulDrops: "bigint",
};

const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** Whether `value` is a value of this type as the runs query writes it. */
export function isSortValue(type: RunSortValueType, value: string): boolean {
  switch (type) {
    case null:
      return value === "";
    case "timestamptz": {
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return false;
      const ms = Date.parse(value);
      // Round-tripping rejects dates that parse but do not exist (February 30th).
      return Number.isFinite(ms) && new Date(ms).toISOString() === value;
    }
    case "bigint": {
      if (!/^-?\d{1,19}$/.test(value)) return false;
      const n = BigInt(value);
      return n >= INT8_MIN && n <= INT8_MAX;
    }
  }
}

function isStoredText(value: unknown, max: number): value is string {
  return (
    typeof value === "string" && value.length > 0 && value.length <= max && !value.includes("\0")
  );
}

/** The URL form of a key in the order `sort`. */
export function encodeRunKey(sort: RunSortKey, key: RunKey): string {
  return Buffer.from(JSON.stringify([sort, key.value, key.tenantId, key.runId])).toString(
    "base64url",
  );
}

/** The key a URL carries, or null when it is not a key of a row in the order `sort`. */
export function decodeRunKey(sort: RunSortKey, text: string): RunKey | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return null;
  const [keySort, value, tenantId, runId] = parsed as unknown[];
  if (keySort !== sort || typeof value !== "string") return null;
  if (!isSortValue(RUN_SORT_VALUE_TYPES[sort], value)) return null;
  if (!isStoredText(tenantId, LIMITS.tenantId) || !isStoredText(runId, LIMITS.runId)) return null;
  return { value, tenantId, runId };
}

/**
 * The position a runs URL asks for. A key that does not decode for the URL's sort (a link
 * edited by hand, or one from before the sort changed) starts at the first page.
 */
export function runsPositionOf(search: {
  sort: RunSortKey;
  after?: string | undefined;
  before?: string | undefined;
  last: boolean;
}): RunsPosition {
  if (search.after) {
    const key = decodeRunKey(search.sort, search.after);
    if (key) return { kind: "after", key };
  } else if (search.before) {
    const key = decodeRunKey(search.sort, search.before);
    if (key) return { kind: "before", key };
  } else if (search.last) {
    return { kind: "last" };
  }
  return { kind: "first" };
}
