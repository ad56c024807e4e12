/** Reading the transcript structurally: which messages there are and where the turn began. */
import type { SelectionContext } from "./types";

/** The message's `type` ("human", "ai", "tool", "system"), or null when it has none. */
export function readMessageType(message: unknown): string | null {
  if (typeof message !== "object" || message === null) return null;
  const type: unknown = (message as { type?: unknown }).type;
  return typeof type === "string" ? type : null;
}

/** The message's `name` (on a tool message: the tool it answers), or null. */
export function readMessageName(message: unknown): string | null {
  if (typeof message !== "object" || message === null) return null;
  const name: unknown = (message as { name?: unknown }).name;
  return typeof name === "string" ? name : null;
}

/** The default tool-message test: `type === "tool"`. */
export function isToolMessage(message: unknown): boolean {
  return readMessageType(message) === "tool";
}

/** `context.messages` when non-empty, else `state.messages` when it is a list, else []. */
export function resolveMessages(context: SelectionContext): readonly unknown[] {
  if (context.messages && context.messages.length > 0) return context.messages;
  const fromState: unknown = context.state?.messages;
  return Array.isArray(fromState) ? fromState : [];
}

/**
 * How many "ai" messages the model has produced since the current user turn
 * began: 0 on a turn's first model call, one more per hop within the turn. The turn starts at
 * the last "human" message; tool messages do not reset it. With no human message, every "ai"
 * message counts.
 */
export function turnHopIndex(messages: readonly unknown[]): number {
  let start = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (readMessageType(messages[index]) === "human") {
      start = index + 1;
      break;
    }
  }
  let hops = 0;
  for (let index = start; index < messages.length; index += 1) {
    if (readMessageType(messages[index]) === "ai") hops += 1;
  }
  return hops;
}
