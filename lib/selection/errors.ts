/** Errors raised when parts of a composition disagree. */

/** Two parts of a routing composition disagree, or one names something that does not exist. */
export class ContractViolationError extends Error {
  override name = "ContractViolationError";
}

/**
 * A forced tool that cannot be offered to the model. Raised by the pipeline before it returns,
 * so before any model call.
 *
 * `reason` is `"not_offered"` when no input tool has that name, or `"dropped"` when a stage
 * that does not protect the forced tool removed it.
 */
export class ForcedToolUnavailable extends ContractViolationError {
  override name = "ForcedToolUnavailable";

  constructor(
    readonly toolName: string,
    readonly reason: "not_offered" | "dropped",
    message: string,
  ) {
    super(message);
  }
}
