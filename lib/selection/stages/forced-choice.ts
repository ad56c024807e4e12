/** Forced choice: resolve which tool, if any, the model must call this iteration. */
import { isToolMessage as defaultIsToolMessage, readMessageName } from "../messages";
import { StageOutcome } from "../outcome";
import type { SelectionStage, StageContext } from "../stage";
import type { SelectionState, Tool } from "../types";

/**
 * Decides the forced tool for an iteration. Called on every iteration (so forcing and
 * releasing are symmetric), with the caller's live state object and the resolved transcript.
 * Returns a tool name, or null (or undefined) to let the model choose; may be async.
 */
export interface ForcedChoiceResolver {
  resolve(
    state: SelectionState,
    messages: readonly unknown[],
  ): string | null | undefined | Promise<string | null | undefined>;
}

export interface ForcedChoiceStageOptions {
  readonly resolver?: ForcedChoiceResolver | null;
  /** The state key holding an explicit stamp. Defaults to "forced_tool_choice". */
  readonly stateKey?: string;
  /** Which transcript messages are tool results. Defaults to `type === "tool"`. */
  readonly isToolMessage?: (message: unknown) => boolean;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Precedence: an explicit `state[stateKey]` stamp, then the resolver, then nothing. On both
 * paths the force is released once a tool message naming the forced tool is in the transcript
 * (the forced call has happened). A resolver that throws releases too (degraded): a stalled
 * loop is worse than an unforced turn. Never touches the candidate set.
 */
export class ForcedChoiceStage implements SelectionStage {
  readonly name = "forced_choice";
  readonly protectsForced = true;
  private readonly resolver: ForcedChoiceResolver | null;
  private readonly stateKey: string;
  private readonly isToolMessage: (message: unknown) => boolean;

  constructor(options: ForcedChoiceStageOptions = {}) {
    this.resolver = options.resolver ?? null;
    this.stateKey = options.stateKey ?? "forced_tool_choice";
    this.isToolMessage = options.isToolMessage ?? defaultIsToolMessage;
  }

  async apply(_tools: readonly Tool[], ctx: StageContext): Promise<StageOutcome> {
    let choice: string | null = null;
    let source = "";
    const stamp = ctx.state[this.stateKey];
    if (typeof stamp === "string" && stamp.length > 0) {
      choice = stamp;
      source = `state stamp "${this.stateKey}"`;
    } else if (this.resolver !== null) {
      try {
        const resolved = await this.resolver.resolve(ctx.state, ctx.messages);
        choice = typeof resolved === "string" && resolved.length > 0 ? resolved : null;
      } catch (error) {
        return StageOutcome.abstain(`resolver failed, force released: ${describeError(error)}`, {
          degraded: true,
        });
      }
      source = "resolver";
    }

    if (choice === null) return StageOutcome.abstain("nothing forced");
    if (this.isAnswered(ctx.messages, choice)) {
      return StageOutcome.abstain(`released: ${choice} already answered in the transcript`);
    }
    return StageOutcome.force(choice, `forced by ${source}`);
  }

  private isAnswered(messages: readonly unknown[], toolName: string): boolean {
    return messages.some(
      (message) => this.isToolMessage(message) && readMessageName(message) === toolName,
    );
  }
}
