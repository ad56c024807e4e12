import { describe, expect, it } from "vitest";
import { resolveMessages, turnHopIndex } from "./messages";

const human = { type: "human", content: "hi" };
const ai = { type: "ai", content: "" };
const tool = { type: "tool", name: "search", content: "[]" };
const system = { type: "system", content: "be nice" };

describe("turnHopIndex", () => {
  it("is 0 on the first model call of a turn", () => {
    expect(turnHopIndex([system, human])).toBe(0);
    expect(turnHopIndex([])).toBe(0);
  });

  it('counts "ai" messages after the last human message', () => {
    expect(turnHopIndex([human, ai, tool, ai, tool])).toBe(2);
  });

  it("is not reset by tool messages", () => {
    expect(turnHopIndex([human, ai, tool, tool, ai, tool, ai])).toBe(3);
  });

  it("resets when a new user turn begins", () => {
    expect(turnHopIndex([human, ai, tool, ai, human])).toBe(0);
    expect(turnHopIndex([human, ai, tool, ai, human, ai])).toBe(1);
  });

  it('counts every "ai" message when there is no human message', () => {
    expect(turnHopIndex([system, ai, tool, ai])).toBe(2);
  });

  it("ignores values that are not messages", () => {
    expect(turnHopIndex([human, null, "ai", ai, 3])).toBe(1);
  });
});

describe("resolveMessages", () => {
  it("prefers non-empty context messages, else state.messages, else []", () => {
    const context = [{ type: "human" as const }];
    const state = { messages: [human] };
    expect(resolveMessages({ messages: context, state })).toBe(context);
    expect(resolveMessages({ messages: [], state })).toBe(state.messages);
    expect(resolveMessages({ state: { messages: "not a list" } })).toEqual([]);
    expect(resolveMessages({})).toEqual([]);
  });
});
