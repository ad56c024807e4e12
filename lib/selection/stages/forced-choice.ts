/** Forced choice: resolve which tool, if any, the model must call this iteration. */

import { isPromiseLike, type MaybePromise } from "../maybe-async";
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

  apply(_tools: readonly Tool[], ctx: StageContext): MaybePromise<StageOutcome> {
    const stamp = ctx.state[this.stateKey];
    if (typeof stamp === "string" && stamp.length > 0) {
      return this.decide(stamp, `state stamp "${this.stateKey}"`, ctx);
    }
    if (this.resolver === null) return StageOutcome.abstain("nothing forced");
    const released = (error: unknown) =>
      StageOutcome.abstain(`resolver failed, force released: ${describeError(error)}`, {
        degraded: true,
      });
    let resolved: ReturnType<ForcedChoiceResolver["resolve"]>;
    try {
      resolved = this.resolver.resolve(ctx.state, ctx.messages);
    } catch (error) {
      return released(error);
    }
    const decide = (value: string | null | undefined) =>
      this.decide(typeof value === "string" && value.length > 0 ? value : null, "resolver", ctx);
    return isPromiseLike(resolved)
      ? Promise.resolve(resolved).then(decide, released)
      : decide(resolved);
  }

  private decide(choice: string | null, source: string, ctx: StageContext): StageOutcome {
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
