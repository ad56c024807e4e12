import { describe, expect, it } from "vitest";
import { toolRoutingDecisionSchema } from "@/lib/schemas/events";
import { runObserveExample } from "./example";

describe("README example (example.ts)", () => {
  it("runs in observe mode: the model keeps every tool, the event says what enforce would offer", async () => {
    const { offered, forcedChoice, event, tools, configVersion } = await runObserveExample();
    expect(offered).toBe(tools);
    expect(forcedChoice).toBeNull();
    expect(event?.mode).toBe("observe");
    expect(event?.selected).toEqual(["hydrate_context", "search_orders"]);
    expect(event?.dropped_tokens).toBeGreaterThan(0);
    expect(event?.config_version).toBe(configVersion);
    expect(configVersion).toMatch(/^cfg_[0-9a-f]{16}$/);
    expect(toolRoutingDecisionSchema.safeParse(event).success).toBe(true);
  });
});
