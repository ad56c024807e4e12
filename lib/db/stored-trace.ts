/**
 * The stored form of a decision's stage trace: the records the agent sent, with every tool
 * name that is also in the decision's `offered` list written as its position there, and
 * fields at their default (empty lists, no forced choice, empty detail, not degraded) left out.
 *
 *   sent:   {"stage":"role_palette","action":"select","kept":["search_docs","lookup_order"],
 *            "dropped":["refund_order"],"added":[],"reinstated":[],"forced_choice":null,
 *            "detail":"","degraded":false}
 *   stored: {"stage":"role_palette","action":"select","kept":[0,7],"dropped":[3]}
 *
 * A six-stage trace shrinks to about a quarter, which keeps a decision row under PostgreSQL's
 * compression threshold and cuts what ingest encodes, sends, parses and logs per decision
 * (docs/PERFORMANCE.md). Reading restores the exact records; rows stored in full (older rows,
 * or rows written by hand) read back unchanged, since a full record is also a valid stored one.
 */
import type { StageRecordWire } from "@/lib/schemas/events";

/** A tool name, or its position in the decision's offered list. */
export type StoredName = string | number;

export interface StoredStageRecord {
  stage: string;
  action: StageRecordWire["action"];
  kept?: StoredName[];
  dropped?: StoredName[];
  added?: StoredName[];
  reinstated?: StoredName[];
  forced_choice?: string;
  detail?: string;
  degraded?: true;
}

const LISTS = ["kept", "dropped", "added", "reinstated"] as const;

/** Offered lists up to this long are searched for a name's position rather than mapped. */
const SEARCHED_IN_PLACE = 64;

/**
 * The first position of a name in `offered`, or -1. A palette of a few dozen tools is searched
 * in place; building a map for each decision was a twentieth of the ingest server's garbage.
 */
function positionLookup(offered: readonly string[]): (name: string) => number {
  if (offered.length <= SEARCHED_IN_PLACE) return (name) => offered.indexOf(name);
  const position = new Map<string, number>();
  for (let i = offered.length - 1; i >= 0; i--) position.set(offered[i] as string, i);
  return (name) => position.get(name) ?? -1;
}

/** The trace as stored for a decision that offered `offered`. */
export function compactTrace(
  trace: readonly StageRecordWire[],
  offered: readonly string[],
): StoredStageRecord[] {
  const positionOf = positionLookup(offered);
  const names = (list: readonly string[]) =>
    list.map((name) => {
      const at = positionOf(name);
      return at < 0 ? name : at;
    });
  return trace.map((record) => {
    const stored: StoredStageRecord = { stage: record.stage, action: record.action };
    for (const list of LISTS) if (record[list].length > 0) stored[list] = names(record[list]);
    if (record.forced_choice !== null) stored.forced_choice = record.forced_choice;
    if (record.detail !== "") stored.detail = record.detail;
    if (record.degraded) stored.degraded = true;
    return stored;
  });
}

/**
 * The records of a stored trace, in full. Read leniently, like everything read back from the
 * database for display: a value that is not a stored record is passed through untouched, for
 * the trace view to report as unreadable.
 */
export function expandTrace(stored: unknown, offered: readonly string[]): unknown {
  if (!Array.isArray(stored)) return stored;
  const names = (list: unknown) =>
    Array.isArray(list)
      ? list.map((name) => (typeof name === "number" ? (offered[name] ?? name) : name))
      : list === undefined
        ? []
        : list;
  return stored.map((record: unknown) => {
    if (record === null || typeof record !== "object" || Array.isArray(record)) return record;
    const r = record as Record<string, unknown>;
    return {
      ...r,
      kept: names(r.kept),
      dropped: names(r.dropped),
      added: names(r.added),
      reinstated: names(r.reinstated),
      forced_choice: r.forced_choice ?? null,
      detail: r.detail ?? "",
      degraded: r.degraded ?? false,
    };
  });
}
