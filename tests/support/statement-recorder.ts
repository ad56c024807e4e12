/**
 * Records the statements the code under test sends through any `pg` client (its pool's
 * clients included), with their parameter values, and passes every call on unchanged. Tests
 * that read PostgreSQL's plans for the real statements use it.
 */
import pg from "pg";

export interface RecordedStatement {
  text: string;
  values: unknown[];
}

const originalQuery = pg.Client.prototype.query;

/** Calls `onStatement` for every statement sent until `stopRecording`. */
export function startRecording(onStatement: (statement: RecordedStatement) => void): void {
  pg.Client.prototype.query = function recordingQuery(this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    const text = typeof first === "string" ? first : (first as { text?: unknown })?.text;
    if (typeof text === "string") {
      const values = Array.isArray(second)
        ? second
        : ((first as { values?: unknown[] } | undefined)?.values ?? []);
      onStatement({ text, values });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}

export function stopRecording(): void {
  pg.Client.prototype.query = originalQuery;
}
