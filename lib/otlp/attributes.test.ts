import { describe, expect, it } from "vitest";
import {
  AttributeProblem,
  classifySpan,
  DefinitionMemo,
  decodeArguments,
  estimateToolTokens,
  readOfferedTools,
  readOutputCalls,
  readRoutedAttributes,
  readToolRun,
  type ToolDefinition,
} from "./attributes";

const tool = (name: string, schemaKey: "parameters" | "inputSchema") => ({
  type: "function",
  name,
  description: `Does ${name}`,
  [schemaKey]: { type: "object", properties: { id: { type: "string" } } },
});

function problemOf(read: () => unknown): AttributeProblem {
  try {
    read();
  } catch (error) {
    if (error instanceof AttributeProblem) return error;
    throw error;
  }
  throw new Error("expected an AttributeProblem");
}

describe("readOfferedTools", () => {
  it("reads GenAI definitions as ONE JSON string of an array, schema under parameters", () => {
    const attrs = {
      "gen_ai.tool.definitions": JSON.stringify([
        tool("search_docs", "parameters"),
        tool("refund_order", "parameters"),
      ]),
    };
    const offered = readOfferedTools(attrs);
    expect(offered?.attribute).toBe("gen_ai.tool.definitions");
    expect(offered?.tools.map((t) => t.name)).toEqual(["search_docs", "refund_order"]);
    expect(offered?.tools[0]?.schema).toEqual({
      type: "object",
      properties: { id: { type: "string" } },
    });
  });

  it("reads AI SDK definitions as an OTel string array, schema under inputSchema", () => {
    const attrs = {
      "ai.prompt.tools": [
        JSON.stringify(tool("lookup_order", "inputSchema")),
        JSON.stringify(tool("escalate", "inputSchema")),
      ],
    };
    const offered = readOfferedTools(attrs);
    expect(offered?.attribute).toBe("ai.prompt.tools");
    expect(offered?.tools.map((t) => t.name)).toEqual(["lookup_order", "escalate"]);
    expect(offered?.tools[1]?.schema).toMatchObject({ type: "object" });
  });

  it("reads OpenInference llm.tools.<i>.tool.json_schema in index order, OpenAI's nested shape too", () => {
    const attrs = {
      "llm.tools.1.tool.json_schema": JSON.stringify({
        type: "function",
        function: { name: "second", parameters: { type: "object" } },
      }),
      "llm.tools.0.tool.json_schema": JSON.stringify(tool("first", "parameters")),
      "llm.tools.10.tool.json_schema": JSON.stringify(tool("eleventh", "parameters")),
    };
    const offered = readOfferedTools(attrs);
    expect(offered?.tools.map((t) => t.name)).toEqual(["first", "second", "eleventh"]);
    expect(offered?.tools[1]?.schema).toEqual({ type: "object" });
  });

  it("reads missing fields as absent: no description, no schema, an unnamed tool left out", () => {
    const attrs = {
      "gen_ai.tool.definitions": JSON.stringify([{ name: "bare" }, { description: "no name" }]),
    };
    const offered = readOfferedTools(attrs);
    // {"name":"bare"} is 15 characters: ceil(15 / 4) = 4 tokens.
    expect(offered?.tools).toEqual([
      { name: "bare", definition: { name: "bare" }, schema: null, tokens: 4 },
    ]);
  });

  it("answers the same for a text read again (parsed once), and refuses a bad one every time", () => {
    const text = JSON.stringify([tool("a", "parameters"), tool("b", "parameters")]);
    const first = readOfferedTools({ "gen_ai.tool.definitions": text });
    const again = readOfferedTools({ "gen_ai.tool.definitions": text });
    expect(again).toEqual(first);
    // Every caller shares the list read from one text: frozen, so none can change it.
    expect(again?.tools).toBe(first?.tools);
    expect(Object.isFrozen(first?.tools)).toBe(true);
    const tools = (first?.tools ?? []) as ToolDefinition[];
    expect(() => tools.push({ ...tools[0] } as ToolDefinition)).toThrow(TypeError);
    const element = JSON.stringify(tool("c", "inputSchema"));
    expect(
      readOfferedTools({ "ai.prompt.tools": [element, element] })?.tools.map((t) => t.name),
    ).toEqual(["c", "c"]);
    for (let i = 0; i < 2; i++) {
      expect(problemOf(() => readOfferedTools({ "gen_ai.tool.definitions": "[1" })).attribute).toBe(
        "gen_ai.tool.definitions",
      );
    }
  });

  it("shares one list per array of JSON texts, told apart by each text, not by their concatenation", () => {
    const [a, b] = [
      JSON.stringify(tool("a", "parameters")),
      JSON.stringify(tool("b", "parameters")),
    ];
    const first = readOfferedTools({ "ai.prompt.tools": [a, b] });
    expect(readOfferedTools({ "ai.prompt.tools": [a, b] })?.tools).toBe(first?.tools);
    expect(first?.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(readOfferedTools({ "ai.prompt.tools": [b, a] })?.tools.map((t) => t.name)).toEqual([
      "b",
      "a",
    ]);
    // Texts whose concatenations are equal are different lists; a bad one is refused every time.
    const split = [`[${a}`, `,${b}]`];
    for (let i = 0; i < 2; i++) {
      expect(problemOf(() => readOfferedTools({ "ai.prompt.tools": split })).attribute).toBe(
        "ai.prompt.tools",
      );
    }
    expect(readOfferedTools({ "gen_ai.tool.definitions": split.join("") })?.tools).toHaveLength(2);
  });

  it("answers undefined when the span records no tool list, an empty list when it records one", () => {
    expect(readOfferedTools({ "gen_ai.operation.name": "chat" })).toBeUndefined();
    expect(readOfferedTools({ "gen_ai.tool.definitions": "[]" })?.tools).toEqual([]);
  });

  it("refuses malformed JSON, naming the attribute and the rule", () => {
    const one = problemOf(() => readOfferedTools({ "gen_ai.tool.definitions": "[{" }));
    expect(one.attribute).toBe("gen_ai.tool.definitions");
    expect(one.message).toMatch(
      /^attribute gen_ai\.tool\.definitions: must be a JSON array of tool definitions \(/,
    );
    const notArray = problemOf(() => readOfferedTools({ "gen_ai.tool.definitions": "{}" }));
    expect(notArray.message).toBe(
      "attribute gen_ai.tool.definitions: must be a JSON array of tool definitions",
    );
    const element = problemOf(() => readOfferedTools({ "ai.prompt.tools": ["{}", "not json"] }));
    expect(element.message).toMatch(
      /^attribute ai\.prompt\.tools: element 1 must be a JSON tool definition \(/,
    );
    const scalar = problemOf(() => readOfferedTools({ "ai.prompt.tools": ["3"] }));
    expect(scalar.message).toBe(
      "attribute ai.prompt.tools: element 0 must be a tool definition object",
    );
    const wrongType = problemOf(() => readOfferedTools({ "gen_ai.tool.definitions": 7 }));
    expect(wrongType.attribute).toBe("gen_ai.tool.definitions");
  });
});

describe("readOutputCalls", () => {
  it("reads GenAI tool_call parts inside gen_ai.output.messages", () => {
    const attrs = {
      "gen_ai.output.messages": JSON.stringify([
        {
          role: "assistant",
          parts: [
            { type: "text", content: "checking" },
            { type: "tool_call", id: "call_1", name: "lookup_order", arguments: { id: "7" } },
            { type: "tool_call", name: "escalate" },
          ],
        },
      ]),
    };
    expect(readOutputCalls(attrs)).toEqual({
      attribute: "gen_ai.output.messages",
      calls: [
        { name: "lookup_order", id: "call_1", arguments: { id: "7" } },
        { name: "escalate", id: null, arguments: undefined },
      ],
    });
  });

  it("reads AI SDK ai.response.toolCalls, decoding a double-encoded input", () => {
    const input = JSON.stringify(JSON.stringify({ id: "7" }));
    const attrs = {
      "ai.response.toolCalls": JSON.stringify([
        { toolCallId: "c1", toolName: "lookup_order", input },
        { toolCallId: "c2", toolName: "escalate", input: { already: "decoded" } },
        { toolCallId: "c3", toolName: "search_docs", input: "{not json" },
      ]),
    };
    expect(readOutputCalls(attrs)?.calls).toEqual([
      { name: "lookup_order", id: "c1", arguments: { id: "7" } },
      { name: "escalate", id: "c2", arguments: { already: "decoded" } },
      { name: "search_docs", id: "c3", arguments: "{not json" },
    ]);
  });

  it("reads OpenInference output tool calls", () => {
    const prefix = "llm.output_messages.0.message";
    const attrs = {
      [`${prefix}.role`]: "assistant",
      [`${prefix}.tool_calls.1.tool_call.function.name`]: "escalate",
      [`${prefix}.tool_calls.0.tool_call.function.name`]: "lookup_order",
      [`${prefix}.tool_calls.0.tool_call.id`]: "call_a",
      [`${prefix}.tool_calls.0.tool_call.function.arguments`]: '{"id":"7"}',
    };
    expect(readOutputCalls(attrs)?.calls).toEqual([
      { name: "lookup_order", id: "call_a", arguments: { id: "7" } },
      { name: "escalate", id: null, arguments: undefined },
    ]);
    expect(readOutputCalls({ [`${prefix}.content`]: "hi" })?.calls).toEqual([]);
  });

  it("is undefined when no output is recorded, and empty when the finish reason says no call", () => {
    expect(readOutputCalls({})).toBeUndefined();
    expect(readOutputCalls({ "ai.response.finishReason": "tool-calls" })).toBeUndefined();
    expect(readOutputCalls({ "ai.response.finishReason": "stop" })?.calls).toEqual([]);
    expect(readOutputCalls({ "ai.response.text": "hello" })?.calls).toEqual([]);
    expect(readOutputCalls({ "gen_ai.response.finish_reasons": ["stop"] })?.calls).toEqual([]);
    expect(readOutputCalls({ "gen_ai.response.finish_reasons": ["tool_call"] })).toBeUndefined();
    expect(readOutputCalls({ "gen_ai.response.finish_reasons": ["tool-calls"] })).toBeUndefined();
  });

  it("refuses malformed output, naming the attribute and the rule", () => {
    expect(problemOf(() => readOutputCalls({ "ai.response.toolCalls": "[" })).message).toMatch(
      /^attribute ai\.response\.toolCalls: must be a JSON array of \{toolCallId, toolName, input\} \(/,
    );
    expect(
      problemOf(() => readOutputCalls({ "ai.response.toolCalls": '[{"toolCallId":"x"}]' })).message,
    ).toBe("attribute ai.response.toolCalls: element 0 must have a toolName");
    expect(
      problemOf(() =>
        readOutputCalls({ "gen_ai.output.messages": '[{"parts":[{"type":"tool_call"}]}]' }),
      ).message,
    ).toBe(
      "attribute gen_ai.output.messages: message 0, part 0: a tool_call part must have a name",
    );
    expect(problemOf(() => readOutputCalls({ "gen_ai.output.messages": "{}" })).attribute).toBe(
      "gen_ai.output.messages",
    );
  });
});

describe("decodeArguments", () => {
  it("decodes once, twice, or keeps text that is not JSON", () => {
    expect(decodeArguments('{"a":1}')).toEqual({ a: 1 });
    expect(decodeArguments(JSON.stringify('{"a":1}'))).toEqual({ a: 1 });
    expect(decodeArguments("plain")).toBe("plain");
    expect(decodeArguments({ a: 1 })).toEqual({ a: 1 });
    expect(decodeArguments(undefined)).toBeUndefined();
  });
});

describe("classifySpan and readToolRun", () => {
  it("classifies each family's LLM calls and tool runs, and ignores other spans", () => {
    expect(classifySpan("ai.generateText.doGenerate", {})).toBe("llm_call");
    expect(classifySpan("ai.streamText.doStream", {})).toBe("llm_call");
    expect(classifySpan("ai.generateObject.doGenerate", {})).toBe("llm_call");
    expect(classifySpan("ai.streamObject.doStream", {})).toBe("llm_call");
    expect(classifySpan("ai.generateText", {})).toBe("other");
    expect(classifySpan("ai.toolCall", {})).toBe("tool_run");
    for (const op of ["chat", "text_completion", "generate_content"]) {
      expect(classifySpan("x", { "gen_ai.operation.name": op })).toBe("llm_call");
    }
    expect(classifySpan("x", { "gen_ai.operation.name": "execute_tool" })).toBe("tool_run");
    expect(classifySpan("x", { "gen_ai.operation.name": "invoke_agent" })).toBe("other");
    expect(classifySpan("x", { "openinference.span.kind": "LLM" })).toBe("llm_call");
    expect(classifySpan("x", { "openinference.span.kind": "TOOL" })).toBe("tool_run");
    expect(classifySpan("GET /", { "http.method": "GET" })).toBe("other");
  });

  it("reads the tool and call id of each family, either may be missing", () => {
    expect(readToolRun({ "gen_ai.tool.name": "a", "gen_ai.tool.call.id": "c" })).toEqual({
      tool: "a",
      callId: "c",
    });
    expect(readToolRun({ "ai.toolCall.name": "b", "ai.toolCall.id": "d" })).toEqual({
      tool: "b",
      callId: "d",
    });
    expect(readToolRun({})).toEqual({ tool: null, callId: null });
  });
});

describe("estimateToolTokens", () => {
  it("is ceil(len(JSON of the definition) / 4)", () => {
    const definition = { name: "abc" }; // {"name":"abc"} = 14 characters
    expect(estimateToolTokens(definition)).toBe(4);
    expect(estimateToolTokens({ name: "abcdef" })).toBe(5); // 17 characters
  });
});

describe("readRoutedAttributes", () => {
  it("reads routelens.* attributes, JSON strings in the §2 shapes", () => {
    const routed = readRoutedAttributes({
      "routelens.mode": "enforce",
      "routelens.role": "planner",
      "routelens.offered": ["a", "b", "c"],
      "routelens.selected": ["a"],
      "routelens.dropped_tokens": 42n,
      "routelens.forced_choice": "a",
      "routelens.turn_hop_index": 2,
      "routelens.config_version": "cfg-1",
      "routelens.trace": JSON.stringify([{ stage: "intent" }]),
      "routelens.warnings": JSON.stringify([{ code: "empty_palette" }]),
    });
    expect(routed).toEqual({
      mode: "enforce",
      role: "planner",
      offered: ["a", "b", "c"],
      selected: ["a"],
      droppedTokens: 42,
      forcedChoice: "a",
      turnHopIndex: 2,
      configVersion: "cfg-1",
      trace: [{ stage: "intent" }],
      warnings: [{ code: "empty_palette" }],
    });
  });

  it("refuses a malformed routelens attribute by name", () => {
    expect(problemOf(() => readRoutedAttributes({ "routelens.trace": "[" })).attribute).toBe(
      "routelens.trace",
    );
    expect(problemOf(() => readRoutedAttributes({ "routelens.offered": [1, 2] })).message).toBe(
      "attribute routelens.offered: must be a string array",
    );
    expect(problemOf(() => readRoutedAttributes({ "routelens.dropped_tokens": 1.5 })).message).toBe(
      "attribute routelens.dropped_tokens: must be an integer",
    );
  });
});

describe("DefinitionMemo", () => {
  it("answers what reading answers, reads each kept text once, and keeps at most its bound", () => {
    const memo = new DefinitionMemo<string>(1_600);
    let reads = 0;
    const read = (text: string) => () => {
      reads += 1;
      return text.toUpperCase();
    };
    expect(memo.get("a".repeat(100), read("a".repeat(100)))).toBe("A".repeat(100));
    expect(memo.get("a".repeat(100), read("a".repeat(100)))).toBe("A".repeat(100));
    expect(reads).toBe(1);
    // A text over a sixteenth of the bound is answered, never kept.
    expect(memo.get("b".repeat(101), read("b".repeat(101)))).toBe("B".repeat(101));
    expect(memo.size).toEqual({ texts: 1, chars: 100 });
    // Distinct texts without end (a hostile sender): never more characters than the bound.
    for (let i = 0; i < 1_000; i++) {
      const text = `${i}`.padStart(90, "x");
      expect(memo.get(text, read(text))).toBe(text.toUpperCase());
      expect(memo.size.chars).toBeLessThanOrEqual(1_600);
    }
    expect(memo.size.texts).toBeLessThanOrEqual(1_600 / 90);
  });
});
