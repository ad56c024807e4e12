import { describe, expect, it, vi } from "vitest";
import type { StageContext } from "../stage";
import type { SelectionState } from "../types";
import { type ForcedChoiceResolver, ForcedChoiceStage } from "./forced-choice";

const search = { name: "search_orders" };
const refund = { name: "refund_order" };
const tools = [search, refund];

function context(state: SelectionState, messages: readonly unknown[] = []): StageContext {
  return { state, messages, role: "action", query: "", inputTools: tools, forcedChoice: null };
}

const resolverFor = (choice: string | null): ForcedChoiceResolver => ({ resolve: () => choice });

describe("ForcedChoiceStage precedence: stamp, then resolver, then none", () => {
  it("uses an explicit state stamp before the resolver", async () => {
    const resolver = { resolve: vi.fn(() => "search_orders") };
    const stage = new ForcedChoiceStage({ resolver });
    const outcome = await stage.apply(tools, context({ forced_tool_choice: "refund_order" }));
    expect(outcome.setsForcedChoice).toBe(true);
    expect(outcome.forcedChoice).toBe("refund_order");
    expect(resolver.resolve).not.toHaveBeenCalled();
  });

  it("asks the resolver when there is no stamp", async () => {
    const stage = new ForcedChoiceStage({ resolver: resolverFor("search_orders") });
    const outcome = await stage.apply(tools, context({}));
    expect(outcome.forcedChoice).toBe("search_orders");
    expect(outcome.detail).toBe("forced by resolver");
  });

  it("accepts an async resolver", async () => {
    const stage = new ForcedChoiceStage({ resolver: { resolve: async () => "refund_order" } });
    expect((await stage.apply(tools, context({}))).forcedChoice).toBe("refund_order");
  });

  it("forces nothing without a stamp or a resolver, or when the resolver returns null", async () => {
    for (const stage of [
      new ForcedChoiceStage(),
      new ForcedChoiceStage({ resolver: resolverFor(null) }),
    ]) {
      const outcome = await stage.apply(tools, context({}));
      expect(outcome.tools).toBeNull();
      expect(outcome.setsForcedChoice).toBe(false);
    }
  });

  it("reads the stamp from a custom state key", async () => {
    const stage = new ForcedChoiceStage({ stateKey: "must_call" });
    const outcome = await stage.apply(tools, context({ must_call: "search_orders" }));
    expect(outcome.forcedChoice).toBe("search_orders");
  });

  it("never touches the candidate set", async () => {
    const stage = new ForcedChoiceStage({ resolver: resolverFor("search_orders") });
    expect((await stage.apply(tools, context({}))).tools).toBeNull();
  });
});

describe("ForcedChoiceStage release", () => {
  const answered = [
    { type: "human", content: "refund order 7" },
    { type: "ai", content: "" },
    { type: "tool", name: "refund_order", content: "done" },
  ];

  it("releases a stamped force once a tool message answers the forced tool", async () => {
    const stage = new ForcedChoiceStage();
    const outcome = await stage.apply(
      tools,
      context({ forced_tool_choice: "refund_order" }, answered),
    );
    expect(outcome.setsForcedChoice).toBe(false);
    expect(outcome.detail).toContain("released");
  });

  it("releases a resolver's force once a tool message answers the forced tool", async () => {
    const stage = new ForcedChoiceStage({ resolver: resolverFor("refund_order") });
    const outcome = await stage.apply(tools, context({}, answered));
    expect(outcome.setsForcedChoice).toBe(false);
  });

  it("keeps forcing while only other tools have answered", async () => {
    const stage = new ForcedChoiceStage({ resolver: resolverFor("search_orders") });
    const outcome = await stage.apply(tools, context({}, answered));
    expect(outcome.forcedChoice).toBe("search_orders");
  });

  it("releases when the resolver throws, marked degraded", async () => {
    const stage = new ForcedChoiceStage({
      resolver: {
        resolve: () => {
          throw new Error("tenant lookup failed");
        },
      },
    });
    const outcome = await stage.apply(tools, context({}));
    expect(outcome.setsForcedChoice).toBe(false);
    expect(outcome.tools).toBeNull();
    expect(outcome.degraded).toBe(true);
    expect(outcome.detail).toContain("tenant lookup failed");
  });

  it("releases when an async resolver rejects", async () => {
    const stage = new ForcedChoiceStage({
      resolver: { resolve: () => Promise.reject(new Error("timeout")) },
    });
    const outcome = await stage.apply(tools, context({}));
    expect(outcome.setsForcedChoice).toBe(false);
    expect(outcome.degraded).toBe(true);
  });

  it("uses a custom tool-message test", async () => {
    const stage = new ForcedChoiceStage({
      resolver: resolverFor("refund_order"),
      isToolMessage: (message) =>
        typeof message === "object" && message !== null && "toolCallId" in message,
    });
    const custom = [{ type: "function", toolCallId: "1", name: "refund_order" }];
    expect((await stage.apply(tools, context({}, custom))).setsForcedChoice).toBe(false);
    expect((await stage.apply(tools, context({}, answered))).forcedChoice).toBe("refund_order");
  });
});

describe("ForcedChoiceStage state identity", () => {
  it("hands the resolver the caller's state object and the transcript", async () => {
    const state: SelectionState = { tenant: "acme" };
    const messages = [{ type: "human", content: "hi" }];
    const resolve = vi.fn((_state: SelectionState, _messages: readonly unknown[]) => null);
    await new ForcedChoiceStage({ resolver: { resolve } }).apply(tools, context(state, messages));
    expect(resolve.mock.calls[0]?.[0]).toBe(state);
    expect(resolve.mock.calls[0]?.[1]).toBe(messages);
  });
});
