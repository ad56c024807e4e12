import { describe, expect, it } from "vitest";
import { decisionEvent, outcomeEvent } from "@/lib/telemetry/events";
import {
  copyData,
  copyJson,
  copyText,
  copyTextArray,
  DECISION_COLUMNS,
  decisionLine,
  OUTCOME_COLUMNS,
  outcomeLine,
} from "./copy";
import { toDecisionRow, toOutcomeRow } from "./events";

describe("COPY text encoding", () => {
  it("escapes backslash, tab, newline and carriage return, and nothing else", () => {
    expect(copyText("plain_name")).toBe("plain_name");
    expect(copyText('a\\b\tc\nd\re "q" , {x}')).toBe('a\\\\b\\tc\\nd\\re "q" , {x}');
  });

  it("quotes every array element, so NULL, empty-looking and punctuated names stay names", () => {
    expect(copyTextArray([])).toBe("{}");
    expect(copyTextArray(["NULL", "a,b", "{c}", " d "])).toBe('{"NULL","a,b","{c}"," d "}');
    // Inside the literal a quote and a backslash get a backslash; COPY then doubles backslashes.
    expect(copyTextArray(['say "hi"', "back\\slash"])).toBe(
      '{"say \\\\"hi\\\\"","back\\\\\\\\slash"}',
    );
  });

  it("writes JSON with its backslashes doubled and null as \\N", () => {
    expect(copyJson({ detail: 'say "hi"\n' })).toBe('{"detail":"say \\\\"hi\\\\"\\\\n"}');
    expect(copyJson(null)).toBe("\\N");
    expect(copyJson([])).toBe("[]");
  });

  it("writes one line per row with one field per column", () => {
    const decisions = [decisionEvent({ model: null }), decisionEvent({ model: "m\tx" })];
    const text = copyData(
      decisions.map((e, i) => ({ ...toDecisionRow("acme", e), palette_id: 7 + i })),
      decisionLine,
    ).toString("utf8");
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    for (const line of lines.slice(0, 2)) {
      expect(line.split("\t")).toHaveLength(DECISION_COLUMNS.length);
    }
    const model = DECISION_COLUMNS.indexOf("model");
    expect(lines[0]?.split("\t")[model]).toBe("\\N");
    expect(lines[1]?.split("\t")[model]).toBe("m\\tx");
    const palette = DECISION_COLUMNS.indexOf("palette_id");
    expect(lines.slice(0, 2).map((line) => line.split("\t")[palette])).toEqual(["7", "8"]);
    // A decision without its palette would be stored without its offered list.
    expect(() =>
      decisionLine(toDecisionRow("acme", decisions[0] as (typeof decisions)[0])),
    ).toThrow("has no palette id");

    const outcome = outcomeLine(toOutcomeRow("acme", outcomeEvent({ error: null })));
    expect(outcome.split("\n")[0]?.split("\t")).toHaveLength(OUTCOME_COLUMNS.length);
    expect(outcome.endsWith("\t\\N\n")).toBe(true);
  });

  it("stores no selected list for a decision that selected all it was offered, in its order", () => {
    const selectedField = (overrides: Parameters<typeof decisionEvent>[0]) =>
      decisionLine({ ...toDecisionRow("acme", decisionEvent(overrides)), palette_id: 1 }).split(
        "\t",
      )[DECISION_COLUMNS.indexOf("selected")];
    const offered = ["search_docs", "lookup_order", "refund_order"];
    // The same array (an unrouted call), or the same names in the same order (nothing dropped).
    expect(selectedField({ offered, selected: offered })).toBe("\\N");
    expect(selectedField({ offered, selected: [...offered] })).toBe("\\N");
    // Anything else is the list itself: another order, fewer names, a repeated one, none.
    expect(
      selectedField({ offered, selected: ["lookup_order", "search_docs", "refund_order"] }),
    ).toBe('{"lookup_order","search_docs","refund_order"}');
    expect(selectedField({ offered, selected: ["search_docs"] })).toBe('{"search_docs"}');
    expect(selectedField({ offered: ["a", "b"], selected: ["a", "a"] })).toBe('{"a","a"}');
    expect(selectedField({ offered, selected: [] })).toBe("{}");
    expect(selectedField({ offered: [], selected: [] })).toBe("\\N");
  });
});

describe("copyData", () => {
  it("writes every line, in order, as UTF-8 bytes", () => {
    const names = ["plain", "caf\u00e9", "\u5de5\u5177", "\ud83d\udee0 tools"];
    const bytes = copyData(names, (name) => `${copyText(name)}\n`);
    expect(bytes.toString("utf8")).toBe(`${names.join("\n")}\n`);
    expect(bytes.length).toBe(Buffer.byteLength(`${names.join("\n")}\n`));
  });

  it("grows past its first buffer without losing or repeating a byte", () => {
    // 300 lines of ~1 kB each, every tenth one with multi-byte characters: far past 64 kB.
    const lines = Array.from(
      { length: 300 },
      (_, i) => `${i}\t${(i % 10 === 0 ? "\u00e9\u5de5" : "ab").repeat(250)}\n`,
    );
    const bytes = copyData(lines, (line) => line);
    expect(bytes.toString("utf8")).toBe(lines.join(""));
  });

  it("gives no bytes for no rows", () => {
    expect(copyData([], () => "never\n").length).toBe(0);
  });
});
