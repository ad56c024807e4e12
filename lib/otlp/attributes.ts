/**
 * Reading the attribute families of SPEC §8 from one span: which tools the model was offered,
 * which it called, and the span's run, agent and model. Pure: no I/O.
 *
 * Families (attribute names as the real libraries write them):
 * - GenAI semantic conventions (pydantic-ai, AI SDK 7 with `@ai-sdk/otel`): `gen_ai.*`.
 * - Vercel AI SDK 5/6 (`experimental_telemetry`): `ai.*`.
 * - OpenInference: `llm.tools.<i>.tool.json_schema`, `llm.output_messages.<i>.message.tool_calls.<j>.tool_call.*`.
 *
 * A value that is present but cannot be read (malformed JSON, the wrong type) throws
 * `AttributeProblem`, naming the attribute and the rule; the span is then refused. A missing
 * attribute is never a problem: it is read as "not recorded".
 */
import type { Attributes, AttributeValue } from "./types";

/** A present attribute that breaks its family's rule: the span carrying it is refused. */
export class AttributeProblem extends Error {
  constructor(
    readonly attribute: string,
    readonly rule: string,
  ) {
    super(`attribute ${attribute}: ${rule}`);
    this.name = "AttributeProblem";
  }
}

export const ATTR = {
  // GenAI semantic conventions
  genAiOperation: "gen_ai.operation.name",
  genAiToolDefinitions: "gen_ai.tool.definitions",
  genAiOutputMessages: "gen_ai.output.messages",
  genAiFinishReasons: "gen_ai.response.finish_reasons",
  genAiToolName: "gen_ai.tool.name",
  genAiToolCallId: "gen_ai.tool.call.id",
  genAiConversationId: "gen_ai.conversation.id",
  genAiAgentName: "gen_ai.agent.name",
  genAiRequestModel: "gen_ai.request.model",
  // Vercel AI SDK 5/6
  aiPromptTools: "ai.prompt.tools",
  aiResponseToolCalls: "ai.response.toolCalls",
  aiResponseText: "ai.response.text",
  aiResponseFinishReason: "ai.response.finishReason",
  aiToolCallName: "ai.toolCall.name",
  aiToolCallId: "ai.toolCall.id",
  aiFunctionId: "ai.telemetry.functionId",
  aiSessionId: "ai.telemetry.metadata.sessionId",
  aiModelId: "ai.model.id",
  // OpenInference
  oiSpanKind: "openinference.span.kind",
  oiToolsPrefix: "llm.tools.",
  oiOutputMessagesPrefix: "llm.output_messages.",
  oiToolName: "tool.name",
  oiToolCallId: "tool_call.id",
  oiSessionId: "session.id",
  oiModelName: "llm.model_name",
  // Resource
  serviceName: "service.name",
} as const;

/** GenAI `gen_ai.operation.name` values that are an LLM call. */
export const GENAI_LLM_OPERATIONS: readonly string[] = [
  "chat",
  "text_completion",
  "generate_content",
];
export const GENAI_TOOL_OPERATION = "execute_tool";

/** AI SDK 5/6 span names of one provider call (the inner spans of generate/stream Text/Object). */
export const AI_SDK_LLM_SPANS: readonly string[] = [
  "ai.generateText.doGenerate",
  "ai.streamText.doStream",
  "ai.generateObject.doGenerate",
  "ai.streamObject.doStream",
];
export const AI_SDK_TOOL_SPAN = "ai.toolCall";

/** One tool the model was offered: its name and the definition as the span recorded it. */
export interface ToolDefinition {
  name: string;
  /** The parsed definition object; its JSON gives the size estimate. */
  definition: Record<string, unknown>;
  /** The input schema, under `parameters`, `inputSchema` or `function.parameters`; null when absent. */
  schema: unknown;
  /** Its size estimate (`estimateToolTokens`). */
  tokens: number;
}

/** One tool call the model made, as its output recorded it. */
export interface ToolCallRecord {
  name: string;
  /** The call's id, null when not recorded. */
  id: string | null;
  /** The arguments, decoded from JSON (twice when double-encoded); the raw text when not JSON. */
  arguments: unknown;
}

/** The tools offered, and where they were read from (for messages). */
export interface OfferedTools {
  attribute: string;
  /**
   * Frozen. Read from the same text (or the same array of texts), it is the same array, so
   * what is derived from a tool list can be kept per list (`mapping.ts`).
   */
  tools: readonly ToolDefinition[];
}

/** The calls the model made, and where they were read from. */
export interface OutputCalls {
  attribute: string;
  calls: ToolCallRecord[];
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A non-empty string attribute (an integer is read as its decimal text); undefined otherwise. */
export function readString(attrs: Attributes, key: string): string | undefined {
  const value = attrs[key];
  if (typeof value === "string") return value.length > 0 ? value : undefined;
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  return undefined;
}

/** A string attribute that must be a string when present. */
function requireString(attrs: Attributes, key: string, rule: string): string | undefined {
  const value = attrs[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new AttributeProblem(key, rule);
  return value;
}

function parseJson(text: string, attribute: string, rule: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AttributeProblem(attribute, `${rule} (${(error as Error).message})`);
  }
}

/** Text holding JSON, decoded; decoded again while the result is itself a JSON text (double encoding). */
export function decodeArguments(value: unknown): unknown {
  let current = value;
  for (let depth = 0; depth < 3 && typeof current === "string"; depth++) {
    const text = current.trim();
    if (!(text.startsWith("{") || text.startsWith("[") || text.startsWith('"'))) break;
    try {
      current = JSON.parse(text);
    } catch {
      break;
    }
  }
  return current;
}

/** A definition object → ToolDefinition; null when it names no tool (then it is not counted). */
function toToolDefinition(definition: JsonObject): ToolDefinition | null {
  const fn = isObject(definition.function) ? definition.function : null;
  const name =
    typeof definition.name === "string"
      ? definition.name
      : typeof fn?.name === "string"
        ? fn.name
        : null;
  if (name === null || name.length === 0) return null;
  const schema = definition.parameters ?? definition.inputSchema ?? fn?.parameters ?? null;
  return { name, definition, schema, tokens: estimateToolTokens(definition) };
}

/**
 * Tool definitions read from a text, by the text. An agent sends the same palette on every LLM
 * call, so parsing and sizing each distinct text once is most of the cost of reading a span.
 * Bounded by the characters of the texts it keeps (cleared when full); what it answers is
 * shared, so it is frozen.
 */
export class DefinitionMemo<T> {
  private readonly entries = new Map<string, T>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(text: string, read: () => T): T {
    const hit = this.entries.get(text);
    if (hit !== undefined) return hit;
    const value = read();
    if (text.length <= this.maxChars / 16) {
      if (this.chars + text.length > this.maxChars) {
        this.entries.clear();
        this.chars = 0;
      }
      this.entries.set(text, value);
      this.chars += text.length;
    }
    return value;
  }

  /** Texts kept, and their characters (for tests of the bound). */
  get size(): { texts: number; chars: number } {
    return { texts: this.entries.size, chars: this.chars };
  }
}

/** Texts kept in all, 16 Mi characters: half for JSON-text lists, a quarter for each of the others. */
const MEMO_CHARS = 8 * 1024 * 1024;
/** Lists given as one JSON text, by the text. */
const listMemo = new DefinitionMemo<readonly ToolDefinition[]>(MEMO_CHARS);
/** Lists given as an array of JSON texts, by `arrayKey` of the texts. */
const arrayListMemo = new DefinitionMemo<readonly ToolDefinition[]>(MEMO_CHARS / 2);
/** The elements of such arrays, by their text (lists that share some tools). */
const elementMemo = new DefinitionMemo<ToolDefinition | null>(MEMO_CHARS / 2);

/** One text for an array of texts: each prefixed with its length, so no two arrays share one. */
function arrayKey(items: readonly string[]): string {
  let key = "";
  for (const item of items) key += `${item.length}:${item}`;
  return key;
}

function freeze(tool: ToolDefinition | null): ToolDefinition | null {
  return tool === null ? null : Object.freeze(tool);
}

function definitionOf(item: unknown, index: number, attribute: string): ToolDefinition | null {
  const read = (parsed: unknown) => {
    if (!isObject(parsed)) {
      throw new AttributeProblem(attribute, `element ${index} must be a tool definition object`);
    }
    return freeze(toToolDefinition(parsed));
  };
  if (typeof item !== "string") return read(item);
  return elementMemo.get(item, () =>
    read(parseJson(item, attribute, `element ${index} must be a JSON tool definition`)),
  );
}

function definitionsFrom(items: unknown[], attribute: string): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  items.forEach((item, index) => {
    const tool = definitionOf(item, index, attribute);
    if (tool) tools.push(tool);
  });
  return tools;
}

/** A decoded OTel value (kvlists become objects) as plain JSON-like data. */
function plain(value: AttributeValue): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) return null;
  if (Array.isArray(value)) return value.map(plain);
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/**
 * A tool list attribute: ONE JSON string holding an array (GenAI), an OTel string array with
 * one JSON tool per element (AI SDK), or an array of objects (a kvlist-valued attribute).
 */
function readToolList(attrs: Attributes, attribute: string): readonly ToolDefinition[] | undefined {
  const value = attrs[attribute];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    return listMemo.get(value, () => {
      const parsed = parseJson(value, attribute, "must be a JSON array of tool definitions");
      if (!Array.isArray(parsed)) {
        throw new AttributeProblem(attribute, "must be a JSON array of tool definitions");
      }
      return Object.freeze(definitionsFrom(parsed, attribute));
    });
  }
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item === "string")) {
      const texts = value as string[];
      return arrayListMemo.get(arrayKey(texts), () =>
        Object.freeze(definitionsFrom(texts, attribute)),
      );
    }
    return Object.freeze(
      definitionsFrom(
        value.map((item) => (typeof item === "string" ? item : plain(item))),
        attribute,
      ),
    );
  }
  throw new AttributeProblem(
    attribute,
    "must be a JSON array of tool definitions or an array of JSON tool definitions",
  );
}

/** OpenInference: `llm.tools.<i>.tool.json_schema`, in index order. */
function readOpenInferenceTools(attrs: Attributes): OfferedTools | undefined {
  const indexed: [number, string][] = [];
  for (const key of Object.keys(attrs)) {
    if (!key.startsWith(ATTR.oiToolsPrefix) || !key.endsWith(".tool.json_schema")) continue;
    const index = Number(key.slice(ATTR.oiToolsPrefix.length, -".tool.json_schema".length));
    if (Number.isInteger(index) && index >= 0) indexed.push([index, key]);
  }
  if (indexed.length === 0) return undefined;
  indexed.sort((a, b) => a[0] - b[0]);
  const tools: ToolDefinition[] = [];
  for (const [, key] of indexed) {
    const text = requireString(attrs, key, "must be a JSON tool definition");
    if (text === undefined) continue;
    const parsed = parseJson(text, key, "must be a JSON tool definition");
    if (!isObject(parsed)) throw new AttributeProblem(key, "must be a JSON tool definition object");
    const tool = toToolDefinition(parsed);
    if (tool) tools.push(tool);
  }
  return { attribute: "llm.tools.<i>.tool.json_schema", tools: Object.freeze(tools) };
}

/**
 * The tools the model was offered, from the first family present; undefined when the span
 * records no tool list (for example AI SDK with `recordInputs: false`).
 */
export function readOfferedTools(attrs: Attributes): OfferedTools | undefined {
  for (const attribute of [ATTR.genAiToolDefinitions, ATTR.aiPromptTools]) {
    const tools = readToolList(attrs, attribute);
    if (tools !== undefined) return { attribute, tools };
  }
  return readOpenInferenceTools(attrs);
}

/** GenAI: parts `{type: "tool_call", id, name, arguments}` of every message in `gen_ai.output.messages`. */
function readGenAiOutput(attrs: Attributes): OutputCalls | undefined {
  const attribute = ATTR.genAiOutputMessages;
  const rule = "must be a JSON array of messages with parts";
  const text = requireString(attrs, attribute, rule);
  if (text === undefined) return undefined;
  const messages = parseJson(text, attribute, rule);
  if (!Array.isArray(messages)) throw new AttributeProblem(attribute, rule);
  const calls: ToolCallRecord[] = [];
  messages.forEach((message, m) => {
    if (!isObject(message))
      throw new AttributeProblem(attribute, `message ${m}: must be an object`);
    const parts = message.parts ?? [];
    if (!Array.isArray(parts)) {
      throw new AttributeProblem(attribute, `message ${m}: parts must be an array`);
    }
    parts.forEach((part, p) => {
      if (!isObject(part) || part.type !== "tool_call") return;
      if (typeof part.name !== "string" || part.name.length === 0) {
        throw new AttributeProblem(
          attribute,
          `message ${m}, part ${p}: a tool_call part must have a name`,
        );
      }
      calls.push({
        name: part.name,
        id: typeof part.id === "string" && part.id.length > 0 ? part.id : null,
        arguments: decodeArguments(part.arguments),
      });
    });
  });
  return { attribute, calls };
}

/** AI SDK: `ai.response.toolCalls`, a JSON string `[{toolCallId, toolName, input}]`. */
function readAiSdkOutput(attrs: Attributes): OutputCalls | undefined {
  const attribute = ATTR.aiResponseToolCalls;
  const rule = "must be a JSON array of {toolCallId, toolName, input}";
  const text = requireString(attrs, attribute, rule);
  if (text === undefined) return undefined;
  const items = parseJson(text, attribute, rule);
  if (!Array.isArray(items)) throw new AttributeProblem(attribute, rule);
  const calls = items.map((item, i): ToolCallRecord => {
    if (!isObject(item) || typeof item.toolName !== "string" || item.toolName.length === 0) {
      throw new AttributeProblem(attribute, `element ${i} must have a toolName`);
    }
    return {
      name: item.toolName,
      id:
        typeof item.toolCallId === "string" && item.toolCallId.length > 0 ? item.toolCallId : null,
      arguments: decodeArguments(item.input ?? item.args),
    };
  });
  return { attribute, calls };
}

const OI_TOOL_CALL =
  /^llm\.output_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\.(function\.name|function\.arguments|id)$/;

/** OpenInference: `llm.output_messages.<i>.message.tool_calls.<j>.tool_call.{id,function.name,function.arguments}`. */
function readOpenInferenceOutput(attrs: Attributes): OutputCalls | undefined {
  let recorded = false;
  const byCall = new Map<string, { order: [number, number]; fields: Record<string, string> }>();
  for (const key of Object.keys(attrs)) {
    if (!key.startsWith(ATTR.oiOutputMessagesPrefix)) continue;
    recorded = true;
    const match = OI_TOOL_CALL.exec(key);
    if (!match) continue;
    const [, m, c, field] = match as unknown as [string, string, string, string];
    const id = `${m}.${c}`;
    let entry = byCall.get(id);
    if (!entry) {
      entry = { order: [Number(m), Number(c)], fields: {} };
      byCall.set(id, entry);
    }
    const value = attrs[key];
    if (typeof value === "string") entry.fields[field] = value;
  }
  if (!recorded) return undefined;
  const entries = [...byCall.values()].sort(
    (a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1],
  );
  const calls = entries.map(({ order, fields }): ToolCallRecord => {
    const name = fields["function.name"];
    if (!name) {
      throw new AttributeProblem(
        `llm.output_messages.${order[0]}.message.tool_calls.${order[1]}.tool_call.function.name`,
        "a recorded tool call must have a name",
      );
    }
    return {
      name,
      id: fields.id || null,
      arguments: decodeArguments(fields["function.arguments"]),
    };
  });
  return { attribute: "llm.output_messages.<i>.message.tool_calls", calls };
}

/**
 * The calls the model made in this LLM call; undefined when the span records no output (calls
 * unknown). A span whose output is not recorded but whose finish reason says the model stopped
 * without calling a tool (GenAI `gen_ai.response.finish_reasons`, AI SDK
 * `ai.response.finishReason`) called nothing: AI SDK leaves `ai.response.toolCalls` out when
 * there were no calls.
 */
export function readOutputCalls(attrs: Attributes): OutputCalls | undefined {
  const recorded =
    readGenAiOutput(attrs) ?? readAiSdkOutput(attrs) ?? readOpenInferenceOutput(attrs);
  if (recorded) return recorded;
  if (readString(attrs, ATTR.aiResponseText) !== undefined) {
    return { attribute: ATTR.aiResponseText, calls: [] };
  }
  const aiFinish = readString(attrs, ATTR.aiResponseFinishReason);
  if (aiFinish !== undefined && aiFinish !== "tool-calls") {
    return { attribute: ATTR.aiResponseFinishReason, calls: [] };
  }
  const reasons = attrs[ATTR.genAiFinishReasons];
  if (Array.isArray(reasons) && reasons.length > 0 && reasons.every((r) => typeof r === "string")) {
    // "tool_call", "tool_calls", "tool-calls": the model asked for a tool, names not recorded.
    const called = reasons.some((r) => (r as string).includes("tool"));
    if (!called) return { attribute: ATTR.genAiFinishReasons, calls: [] };
  }
  return undefined;
}

/** What kind of span this is for Routelens. */
export type SpanClass = "llm_call" | "tool_run" | "other";

/** Classifies a span by the families' rules; spans of no family are `other` (ignored). */
export function classifySpan(name: string, attrs: Attributes): SpanClass {
  if (AI_SDK_LLM_SPANS.includes(name)) return "llm_call";
  if (name === AI_SDK_TOOL_SPAN) return "tool_run";
  const operation = readString(attrs, ATTR.genAiOperation);
  if (operation !== undefined) {
    if (GENAI_LLM_OPERATIONS.includes(operation)) return "llm_call";
    if (operation === GENAI_TOOL_OPERATION) return "tool_run";
  }
  const oiKind = readString(attrs, ATTR.oiSpanKind);
  if (oiKind === "LLM") return "llm_call";
  if (oiKind === "TOOL") return "tool_run";
  return "other";
}

/** The tool a tool-run span executed and the id of the call it answers (either may be missing). */
export function readToolRun(attrs: Attributes): { tool: string | null; callId: string | null } {
  return {
    tool:
      readString(attrs, ATTR.genAiToolName) ??
      readString(attrs, ATTR.aiToolCallName) ??
      readString(attrs, ATTR.oiToolName) ??
      null,
    callId:
      readString(attrs, ATTR.genAiToolCallId) ??
      readString(attrs, ATTR.aiToolCallId) ??
      readString(attrs, ATTR.oiToolCallId) ??
      null,
  };
}

/** The agent's name: `gen_ai.agent.name`, else `ai.telemetry.functionId`. */
export function readAgentName(attrs: Attributes): string | undefined {
  return readString(attrs, ATTR.genAiAgentName) ?? readString(attrs, ATTR.aiFunctionId);
}

/** The conversation or session id the span belongs to, when recorded. */
export function readSessionId(attrs: Attributes): string | undefined {
  return (
    readString(attrs, ATTR.genAiConversationId) ??
    readString(attrs, ATTR.aiSessionId) ??
    readString(attrs, ATTR.oiSessionId)
  );
}

/** The model requested: `gen_ai.request.model`, `ai.model.id` or `llm.model_name`. */
export function readModel(attrs: Attributes): string | undefined {
  return (
    readString(attrs, ATTR.genAiRequestModel) ??
    readString(attrs, ATTR.aiModelId) ??
    readString(attrs, ATTR.oiModelName)
  );
}

/** SPEC §8 "Tool size": `ceil(len(JSON of the definition) / 4)` tokens, an estimate. */
export function estimateToolTokens(definition: Record<string, unknown>): number {
  return Math.ceil(JSON.stringify(definition).length / 4);
}

/** `routelens.*` attributes of a routed agent (SPEC §8 "Routed agents"), read as they are. */
export interface RoutedAttributes {
  mode?: string;
  role?: string;
  offered?: string[];
  selected?: string[];
  droppedTokens?: number;
  forcedChoice?: string | null;
  turnHopIndex?: number;
  configVersion?: string;
  trace?: unknown;
  warnings?: unknown;
}

export const ROUTELENS_ATTR = {
  mode: "routelens.mode",
  role: "routelens.role",
  offered: "routelens.offered",
  selected: "routelens.selected",
  droppedTokens: "routelens.dropped_tokens",
  forcedChoice: "routelens.forced_choice",
  turnHopIndex: "routelens.turn_hop_index",
  configVersion: "routelens.config_version",
  trace: "routelens.trace",
  warnings: "routelens.warnings",
} as const;

function readStringArray(attrs: Attributes, key: string): string[] | undefined {
  const value = attrs[key];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return value as string[];
  }
  // A JSON string holding an array of strings is read too (some exporters flatten arrays).
  if (typeof value === "string") {
    const parsed = parseJson(value, key, "must be a string array");
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === "string")) return parsed;
  }
  throw new AttributeProblem(key, "must be a string array");
}

function readInteger(attrs: Attributes, key: string): number | undefined {
  const value = attrs[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "bigint") {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new AttributeProblem(key, "must be an integer within ±2^53");
    }
    return Number(value);
  }
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d{1,15}$/.test(value)) return Number(value);
  throw new AttributeProblem(key, "must be an integer");
}

function readJsonAttribute(attrs: Attributes, key: string, rule: string): unknown {
  const value = attrs[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new AttributeProblem(key, rule);
  return parseJson(value, key, rule);
}

/** The `routelens.*` attributes present on the span (malformed ones throw `AttributeProblem`). */
export function readRoutedAttributes(attrs: Attributes): RoutedAttributes {
  const forced = attrs[ROUTELENS_ATTR.forcedChoice];
  if (forced !== undefined && forced !== null && typeof forced !== "string") {
    throw new AttributeProblem(ROUTELENS_ATTR.forcedChoice, "must be a string");
  }
  return {
    mode: requireString(attrs, ROUTELENS_ATTR.mode, "must be a string"),
    role: requireString(attrs, ROUTELENS_ATTR.role, "must be a string"),
    offered: readStringArray(attrs, ROUTELENS_ATTR.offered),
    selected: readStringArray(attrs, ROUTELENS_ATTR.selected),
    droppedTokens: readInteger(attrs, ROUTELENS_ATTR.droppedTokens),
    forcedChoice: forced === undefined || forced === "" ? undefined : forced,
    turnHopIndex: readInteger(attrs, ROUTELENS_ATTR.turnHopIndex),
    configVersion: requireString(attrs, ROUTELENS_ATTR.configVersion, "must be a string"),
    trace: readJsonAttribute(
      attrs,
      ROUTELENS_ATTR.trace,
      "must be a JSON string holding an array of stage records",
    ),
    warnings: readJsonAttribute(
      attrs,
      ROUTELENS_ATTR.warnings,
      "must be a JSON string holding an array of warnings",
    ),
  };
}
