/**
 * The shapes the selection core reads. Everything is structural: a tool is any object, a
 * message is any object with a `type`, and the core never constructs either.
 */
import type { WarningCode } from "@/lib/schemas/events";

/** A tool as the core sees it: any object. `name` and `description` are read structurally. */
export type Tool = object;

/** Conversation state handed to resolvers by identity (never copied). */
export type SelectionState = Record<string, unknown>;

/** The message kinds the core distinguishes; `tool` messages carry the tool's `name`. */
export type MessageType = "human" | "ai" | "tool" | "system";

/** A transcript message. Messages from `state.messages` are read structurally as well. */
export interface Message {
  readonly type: MessageType;
  /** On a `tool` message: the name of the tool whose call it answers. */
  readonly name?: string;
  readonly content?: unknown;
}

/** What the caller knows about the turn being selected for. */
export interface SelectionContext {
  /** Live agent state; reaches resolvers as the very same object. */
  readonly state?: SelectionState;
  /** The transcript; when absent or empty, `state.messages` is used. */
  readonly messages?: readonly Message[];
  /** The role the model is called as, e.g. "action". */
  readonly role?: string;
  /** The user's query for this turn, for stages that read it. */
  readonly query?: string;
}

/** Warning codes the pipeline emits. */
export type SelectionWarningCode = WarningCode;

/** A warning raised while selecting; `stage` names the stage it concerns. */
export interface SelectionWarning {
  readonly code: SelectionWarningCode;
  readonly stage?: string;
  readonly detail?: string;
}

/** An intent classifier's verdict for the turn. */
export interface IntentVerdict {
  /** "action", "knowledge" or "ambiguous"; any other label is handled like "action". */
  readonly label: string;
  /** Tool names whose trigger keywords matched the query. */
  readonly matchedToolKeywords?: readonly string[] | null;
}
