/**
 * Rows in PostgreSQL's COPY text format, the cheapest way to hand PostgreSQL many rows: it
 * parses tab-separated text with no per-row statement, no parameters and no JSON-to-record
 * step (about a third of the database CPU per decision of `INSERT … SELECT FROM
 * json_to_recordset`, measured in docs/PERFORMANCE.md).
 *
 * Format (https://www.postgresql.org/docs/current/sql-copy.html, "Text Format"): one line per
 * row, columns separated by a tab, `\N` for NULL; a backslash, newline, carriage return or tab
 * inside a value is written as a backslash sequence. Arrays use the array literal syntax with
 * every element double-quoted. NUL cannot occur: the wire schema refuses it, and the one field
 * that may hold it (palette identity) is escaped before it gets here.
 */
import type { NumberedDecision } from "./decision-outcomes";
import { type DecisionRow, type OutcomeRow, selectedIsOffered } from "./events";

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

/** One text value, escaped for COPY. */
export function copyText(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPES[c] as string) : value;
}

/** A nullable text value: `\\N` for NULL. */
export const copyNullable = (value: string | null): string =>
  value === null ? "\\N" : copyText(value);

const ARRAY_SPECIAL = /["\\\t\n\r]/;
const QUOTE_OR_BACKSLASH_ALL = /["\\]/g;

/** A text[] value: every element quoted, so no name is ever read as NULL or split. */
export function copyTextArray(values: readonly string[]): string {
  let plain = true;
  for (const value of values) {
    if (ARRAY_SPECIAL.test(value)) {
      plain = false;
      break;
    }
  }
  // The common case: no element needs an escape, in the array literal or in COPY.
  if (plain) return values.length === 0 ? "{}" : `{"${values.join('","')}"}`;
  const quoted = values.map((value) => `"${value.replace(QUOTE_OR_BACKSLASH_ALL, "\\$&")}"`);
  return copyText(`{${quoted.join(",")}}`);
}

/** A json value. JSON.stringify never writes a raw tab or newline, only backslash escapes. */
export function copyJson(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  return escapeJson(JSON.stringify(value));
}

const escapeJson = (json: string) => (json.includes("\\") ? json.replaceAll("\\", "\\\\") : json);

/** The decision columns `DecisionRow.documents` holds, in this order. */
export const DOCUMENT_COLUMNS = ["trace", "warnings", "intent"] as const;

/** A decision's trace, warnings and intent as the COPY text of `DOCUMENT_COLUMNS`. */
export const decisionDocuments = (trace: unknown, warnings: unknown, intent: unknown): string =>
  `${copyJson(trace)}\t${copyJson(warnings)}\t${copyJson(intent)}`;

export const DECISION_COLUMNS = [
  "tenant_id",
  "event_id",
  "run_id",
  "role",
  "mode",
  "iteration",
  "turn_hop_index",
  "ts",
  "offered_count",
  "selected_count",
  "dropped_count",
  "dropped_tokens",
  "reinstatements",
  "empty_palette_warnings",
  "stage_errors",
  "forced_choice",
  "palette_identity",
  "config_version",
  "model",
  "agent",
  "intent_label",
  "palette_id",
  "selected",
  ...DOCUMENT_COLUMNS,
] as const satisfies readonly (keyof DecisionRow | (typeof DOCUMENT_COLUMNS)[number])[];

/**
 * One decision's COPY line, columns in the order of DECISION_COLUMNS. A decision that selected
 * its whole offered list gets NULL for `selected` (`selectedIsOffered`): the list is stored once,
 * as its palette.
 */
export function decisionLine(r: DecisionRow): string {
  // Without its palette the decision would lose its offered list: refuse rather than store it.
  if (r.palette_id === null) throw new Error(`Decision ${r.event_id} has no palette id.`);
  const selected = selectedIsOffered(r.selected, r.offered) ? "\\N" : copyTextArray(r.selected);
  return (
    `${copyText(r.tenant_id)}\t${copyText(r.event_id)}\t${copyText(r.run_id)}\t` +
    `${copyText(r.role)}\t${copyText(r.mode)}\t${r.iteration}\t${r.turn_hop_index}\t${r.ts}\t` +
    `${r.offered_count}\t${r.selected_count}\t${r.dropped_count}\t${r.dropped_tokens}\t` +
    `${r.reinstatements}\t${r.empty_palette_warnings}\t${r.stage_errors}\t` +
    `${copyNullable(r.forced_choice)}\t${copyNullable(r.palette_identity)}\t${copyText(r.config_version)}\t` +
    `${copyNullable(r.model)}\t${copyNullable(r.agent)}\t${copyNullable(r.intent_label)}\t` +
    `${r.palette_id}\t${selected}\t${r.documents}\n`
  );
}

export const OUTCOME_COLUMNS = [
  "tenant_id",
  "event_id",
  "run_id",
  "role",
  "iteration",
  "ts",
  "called",
  "error",
] as const satisfies readonly (keyof OutcomeRow)[];

/** One outcome's COPY line, columns in the order of OUTCOME_COLUMNS. */
export function outcomeLine(r: OutcomeRow): string {
  return (
    `${copyText(r.tenant_id)}\t${copyText(r.event_id)}\t${copyText(r.run_id)}\t` +
    `${copyText(r.role)}\t${r.iteration}\t${r.ts}\t${copyTextArray(r.called)}\t${copyNullable(r.error)}\n`
  );
}

/**
 * The decision columns with `id`: decisions are copied with the ids taken for them first
 * (decision-outcomes.ts).
 */
export const NUMBERED_DECISION_COLUMNS = ["id", ...DECISION_COLUMNS] as const;

/** One numbered decision's COPY line, columns in the order of NUMBERED_DECISION_COLUMNS. */
export const numberedDecisionLine = (d: NumberedDecision): string =>
  `${d.id}\t${decisionLine(d.row)}`;

export const JOINED_OUTCOME_COLUMNS = [...OUTCOME_COLUMNS, "joined"] as const;

/** One outcome's COPY line with its `joined` flag, columns in the order of JOINED_OUTCOME_COLUMNS. */
export const joinedOutcomeLine = (r: OutcomeRow, joined = true): string =>
  `${outcomeLine(r).slice(0, -1)}\t${joined ? "t" : "f"}\n`;

/** Room for the first lines of a chunk; a chunk of 100 decisions takes about 140 kB. */
const INITIAL_BYTES = 64 * 1024;

/**
 * The rows' COPY lines as the bytes sent to PostgreSQL, each line written into one buffer as
 * it is made. Concatenating the lines into one string first and encoding that costs about
 * twice as much: V8 keeps a long `+=` string as a tree of pieces and must flatten it before
 * encoding (8 against 4.5 ms per 500 decisions, docs/PERFORMANCE.md).
 */
export function copyData<Row>(rows: readonly Row[], line: (row: Row) => string): Buffer {
  let buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  let used = 0;
  for (const row of rows) {
    const text = line(row);
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    const room = used + text.length * 3;
    if (room > buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, room));
      buffer.copy(grown, 0, 0, used);
      buffer = grown;
    }
    used += buffer.write(text, used, "utf8");
  }
  return buffer.subarray(0, used);
}
