import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/dashboard/csv";
import {
  contextTaxCsvColumns,
  describeMissingToolLists,
  describeTaxWindow,
  formatShare,
  prepareContextTaxDays,
  prepareContextTaxLines,
  sumContextTaxPerTool,
  summarizeContextTax,
} from "./context-tax";
import type { ContextTaxRow } from "./types";

/** A tool whose every offer has a definition size of `perOffer` tokens. */
function sized(tool: string, offers: number, calls: number, unused: number, perOffer: number) {
  return {
    tool,
    offers,
    calls,
    unusedOffers: unused,
    estimatedOffers: offers,
    definitionOffers: offers,
    offeredTokens: offers * perOffer,
    unusedTokens: unused * perOffer,
  } satisfies ContextTaxRow;
}

describe("prepareContextTaxLines", () => {
  it("computes calls per offer and tokens per offer from the sums", () => {
    const [line] = prepareContextTaxLines([sized("search_docs", 40, 10, 30, 120)]);
    expect(line).toMatchObject({
      callRate: 0.25,
      tokensPerOffer: 120,
      unusedTokens: 3_600,
      offeredTokens: 4_800,
      source: "definition",
      neverCalled: false,
    });
  });

  it("puts never-called tools first, costliest first, then the others by their unused cost", () => {
    const lines = prepareContextTaxLines([
      sized("called_cheap", 10, 2, 8, 10),
      sized("never_cheap", 10, 0, 10, 5),
      sized("called_costly", 100, 1, 99, 300),
      sized("never_costly", 10, 0, 10, 200),
    ]);
    expect(lines.map((line) => line.tool)).toEqual([
      "never_costly",
      "never_cheap",
      "called_costly",
      "called_cheap",
    ]);
  });

  it("labels where each estimate comes from, and has none when neither source exists", () => {
    const lines = prepareContextTaxLines([
      { ...sized("from_drops", 10, 1, 9, 50), definitionOffers: 0 },
      { ...sized("both", 10, 1, 9, 50), definitionOffers: 4 },
      {
        ...sized("unknown", 10, 0, 10, 0),
        estimatedOffers: 0,
        definitionOffers: 0,
      },
      sized("never_called", 10, 0, 10, 1),
    ]);
    const byTool = Object.fromEntries(lines.map((line) => [line.tool, line]));
    expect(byTool.from_drops?.source).toBe("dropped");
    expect(byTool.both?.source).toBe("mixed");
    expect(byTool.unknown).toMatchObject({
      source: "none",
      tokensPerOffer: null,
      unusedTokens: null,
      offeredTokens: 0,
    });
    // Among never-called tools, an unknown cost sorts after every known one.
    expect(lines.map((line) => line.tool)).toEqual([
      "never_called",
      "unknown",
      "both",
      "from_drops",
    ]);
  });

  it("has no call rate for a tool never offered (a call outside the palette)", () => {
    const [line] = prepareContextTaxLines([sized("outside", 0, 3, 0, 10)]);
    expect(line?.callRate).toBeNull();
    expect(line?.neverCalled).toBe(false);
  });
});

describe("summarizeContextTax", () => {
  it("says what unused offers cost and their share of all offered tokens", () => {
    const lines = prepareContextTaxLines([
      sized("search_docs", 1_000, 900, 100, 200),
      sized("delete_account", 2_000, 0, 2_000, 300),
      sized("create_ticket", 1_000, 500, 500, 1_000),
    ]);
    const summary = summarizeContextTax(lines, "over the last 7 days");
    // unused: 100·200 + 2,000·300 + 500·1,000 = 1,120,000; offered: 200,000 + 600,000 + 1,000,000
    expect(summary.unusedTokens).toBe(1_120_000);
    expect(summary.offeredTokens).toBe(1_800_000);
    expect(summary.headline).toBe(
      "Offering tools the model did not call cost an estimated 1.1M tokens over the last 7 days, 62% of the 1.8M tokens spent offering tools.",
    );
    expect(summary.detail).toBe("1 of 3 offered tools were never called.");
    expect(summary.neverCalledTools).toBe(1);
  });

  it("counts tools without an estimate out, and says so", () => {
    const lines = prepareContextTaxLines([
      sized("a", 10, 5, 5, 100),
      { ...sized("b", 10, 0, 10, 0), estimatedOffers: 0, definitionOffers: 0 },
    ]);
    const summary = summarizeContextTax(lines, "over the last 24 hours");
    expect(summary.headline).toContain("an estimated 500 tokens over the last 24 hours, 50%");
    expect(summary.detail).toContain("1 tool has no size estimate and is not counted.");
  });

  it("has a sentence for a window without offers, and for offers without any estimate", () => {
    expect(summarizeContextTax([], "over the last hour").headline).toBe(
      "No tool was offered to a model over the last hour.",
    );
    const unknown = prepareContextTaxLines([
      { ...sized("b", 10, 0, 10, 0), estimatedOffers: 0, definitionOffers: 0 },
    ]);
    const summary = summarizeContextTax(unknown, "in this range");
    expect(summary.share).toBeNull();
    expect(summary.headline).toMatch(/^No offered tool has a size estimate in this range/);
  });
});

describe("formatShare and describeTaxWindow", () => {
  it("formats shares readably", () => {
    expect(formatShare(0.384)).toBe("38%");
    expect(formatShare(0.042)).toBe("4.2%");
    expect(formatShare(0.05)).toBe("5%");
    expect(formatShare(0.0004)).toBe("<0.1%");
    expect(formatShare(0)).toBe("0%");
  });

  it("names a preset window and a custom one", () => {
    expect(describeTaxWindow({ preset: "7d", label: "Last 7 days" })).toBe("over the last 7 days");
    expect(describeTaxWindow({ preset: "custom", label: "Custom range" })).toBe("in this range");
  });
});

describe("prepareContextTaxDays", () => {
  it("orders newest day first, then tenant and role, with each day's share", () => {
    const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
    const row = (iso: string, tenant: string, role: string, offered: number, unused: number) => ({
      day: day(iso),
      tenant,
      role,
      offers: 1,
      unusedOffers: 1,
      offeredTokens: offered,
      unusedTokens: unused,
    });
    const lines = prepareContextTaxDays([
      row("2026-11-28", "acme", "action", 100, 25),
      row("2026-11-29", "globex", "action", 0, 0),
      row("2026-11-29", "acme", "reasoning", 200, 200),
      row("2026-11-29", "acme", "action", 400, 100),
    ]);
    expect(lines.map((line) => `${line.dayLabel} ${line.tenant} ${line.role}`)).toEqual([
      "2026-11-29 acme action",
      "2026-11-29 acme reasoning",
      "2026-11-29 globex action",
      "2026-11-28 acme action",
    ]);
    expect(lines.map((line) => line.share)).toEqual([0.25, 1, null, 0.25]);
  });
});

describe("describeMissingToolLists", () => {
  it("names the count and the setting, and is silent when every call had a list", () => {
    expect(describeMissingToolLists(0)).toBeNull();
    expect(describeMissingToolLists(1)?.text).toBe(
      "1 LLM call carried no tool list — tool recording is off (Vercel AI SDK: recordInputs: false)",
    );
    expect(describeMissingToolLists(1_234)).toMatchObject({
      lead: "1,234 LLM calls carried no tool list — tool recording is off",
      setting: "recordInputs: false",
    });
  });
});

describe("contextTaxCsvColumns", () => {
  it("writes estimates rounded and unknown values empty", () => {
    const lines = prepareContextTaxLines([
      { ...sized("b", 3, 0, 3, 0), estimatedOffers: 0, definitionOffers: 0 },
      { ...sized("a", 3, 1, 2, 10), offeredTokens: 31, unusedTokens: 20.6 },
    ]);
    expect(toCsv(contextTaxCsvColumns, lines).split("\r\n")).toEqual([
      "tool,offers,calls,call_rate,unused_offers,estimated_tokens_per_offer,estimate_source,estimated_tokens_unused_offers",
      "b,3,0,0,3,,,",
      "a,3,1,0.333333,2,10,definition size,21",
      "",
    ]);
  });
});

describe("sumContextTaxPerTool", () => {
  it("adds tenants up per tool, each offer costed with its own tenant's estimate", () => {
    const row = (
      tenant: string,
      tool: string,
      definition: number | null,
      tokens: number | null,
    ) => ({
      tenant,
      tool,
      offers: 10,
      calls: 4,
      unusedOffers: 6,
      definitionTokens: definition,
      tokens,
    });
    const [search, other] = sumContextTaxPerTool([
      row("acme", "search", 100, 100),
      row("globex", "search", null, 40),
      row("initech", "search", null, null),
      row("acme", "other", null, null),
    ]);
    expect(search).toEqual({
      tool: "search",
      offers: 30,
      calls: 12,
      unusedOffers: 18,
      estimatedOffers: 20,
      definitionOffers: 10,
      offeredTokens: 1_400,
      unusedTokens: 840,
    });
    expect(other).toMatchObject({ estimatedOffers: 0, offeredTokens: 0, unusedTokens: 0 });
    const [line] = prepareContextTaxLines([search as ContextTaxRow]);
    expect(line).toMatchObject({ source: "mixed", tokensPerOffer: 70 });
  });
});
