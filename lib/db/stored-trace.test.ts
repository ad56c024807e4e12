import { describe, expect, it } from "vitest";
import { Random } from "@/lib/demo/random";
import type { StageRecordWire } from "@/lib/schemas/events";
import { stageRecord } from "@/lib/telemetry/events";
import { compactTrace, expandTrace } from "./stored-trace";

const OFFERED = ["search_docs", "lookup_order", "refund_order", "search_docs", "NULL"];

describe("stored trace", () => {
  it("writes offered names as positions and leaves out fields at their default", () => {
    const trace = [
      stageRecord({ stage: "intent" }),
      stageRecord({
        stage: "role_palette",
        action: "select",
        kept: ["search_docs", "refund_order"],
        dropped: ["lookup_order"],
        added: ["escalate"],
        reinstated: ["refund_order"],
        forced_choice: "refund_order",
        detail: "role palette for action",
        degraded: true,
      }),
    ];
    expect(compactTrace(trace, OFFERED)).toEqual([
      { stage: "intent", action: "abstain" },
      {
        stage: "role_palette",
        action: "select",
        kept: [0, 2],
        dropped: [1],
        added: ["escalate"],
        reinstated: [2],
        forced_choice: "refund_order",
        detail: "role palette for action",
        degraded: true,
      },
    ]);
  });

  it("reads back exactly the records that were sent, for random traces", () => {
    const random = new Random(7);
    const pool = [...OFFERED, "not_offered", 'also "not" offered', "ünï"];
    const pick = () => pool.filter(() => random.chance(0.3));
    for (let i = 0; i < 500; i++) {
      const offered = pool.filter(() => random.chance(0.6));
      const trace: StageRecordWire[] = Array.from({ length: random.int(0, 8) }, (_, s) =>
        stageRecord({
          stage: `stage-${s}`,
          action: random.pick(["abstain", "select", "force", "error"] as const),
          kept: pick(),
          dropped: pick(),
          added: pick(),
          reinstated: pick(),
          forced_choice: random.chance(0.3) ? random.pick(pool) : null,
          detail: random.chance(0.5) ? "" : "why",
          degraded: random.chance(0.2),
        }),
      );
      const stored = JSON.parse(JSON.stringify(compactTrace(trace, offered)));
      expect(expandTrace(stored, offered)).toEqual(trace);
    }
  });

  it("writes the first position of a name in long offered lists as in short ones", () => {
    const names = (count: number) => Array.from({ length: count }, (_, i) => `tool_${i % 70}`);
    for (const offered of [names(10), names(64), names(65), names(200)]) {
      const asked = ["tool_3", "tool_69", "tool_9", "elsewhere"];
      const [record] = compactTrace([stageRecord({ stage: "s", kept: asked })], offered);
      expect(record?.kept).toEqual(
        asked.map((name) => (offered.includes(name) ? offered.indexOf(name) : name)),
      );
    }
  });

  it("reads a trace stored in full unchanged", () => {
    const full = [stageRecord({ stage: "policy", action: "select", kept: ["lookup_order"] })];
    expect(expandTrace(full, OFFERED)).toEqual(full);
  });

  it("passes through what is not a stored trace, for the view to report", () => {
    expect(expandTrace("garbage", OFFERED)).toBe("garbage");
    expect(expandTrace([42, null], OFFERED)).toEqual([42, null]);
    expect(expandTrace([{ stage: "x", action: "select", kept: "nope" }], OFFERED)).toEqual([
      {
        stage: "x",
        action: "select",
        kept: "nope",
        dropped: [],
        added: [],
        reinstated: [],
        forced_choice: null,
        detail: "",
        degraded: false,
      },
    ]);
  });
});
