/**
 * "The database cannot be reached now": the errors that mean retry later (ingest answers 503
 * with `Retry-After`), told apart from every other database error.
 */

/** Thrown when a write gave up because PostgreSQL was unreachable. */
export class DatabaseUnavailable extends Error {
  override name = "DatabaseUnavailable";
}

const UNAVAILABLE_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** True for errors that mean "the database cannot be reached now": retry later. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error/i.test(
    error.message,
  );
}
