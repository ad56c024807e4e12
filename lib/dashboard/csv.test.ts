import { describe, expect, it } from "vitest";
import { csvFileName, escapeCsvField, toCsv } from "./csv";

describe("escapeCsvField", () => {
  it("quotes fields with commas, quotes and line breaks", () => {
    expect(escapeCsvField("plain")).toBe("plain");
    expect(escapeCsvField("a,b")).toBe('"a,b"');
    expect(escapeCsvField('say "hi"')).toBe('"say ""hi"""');
    expect(escapeCsvField("two\nlines")).toBe('"two\nlines"');
  });

  it("neutralises text a spreadsheet would run as a formula", () => {
    expect(escapeCsvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(escapeCsvField("+1")).toBe("'+1");
    expect(escapeCsvField("-rm")).toBe("'-rm");
    expect(escapeCsvField("@sum")).toBe("'@sum");
    expect(escapeCsvField("=a,b")).toBe(`"'=a,b"`);
  });

  it("neutralises a formula after leading whitespace", () => {
    expect(escapeCsvField(" =1+1")).toBe("' =1+1");
    expect(escapeCsvField("   +1")).toBe("'   +1");
    expect(escapeCsvField("\t-2")).toBe("'\t-2");
    expect(escapeCsvField("\u00a0@sum")).toBe("'\u00a0@sum");
    expect(escapeCsvField("\ufeff=cmd")).toBe("'\ufeff=cmd");
    expect(escapeCsvField("\n=x")).toBe(`"'\n=x"`);
    expect(escapeCsvField(" \t")).toBe(" \t");
    expect(escapeCsvField("search docs")).toBe("search docs");
    expect(escapeCsvField(" a=b")).toBe(" a=b");
  });

  it("writes numbers, booleans and empties as they are", () => {
    expect(escapeCsvField(-12)).toBe("-12");
    expect(escapeCsvField(1.5)).toBe("1.5");
    expect(escapeCsvField(Number.NaN)).toBe("");
    expect(escapeCsvField(true)).toBe("true");
    expect(escapeCsvField(null)).toBe("");
    expect(escapeCsvField(undefined)).toBe("");
  });
});

describe("toCsv", () => {
  it("writes a header and CRLF-terminated rows; lists are space-joined", () => {
    const csv = toCsv(
      [
        { header: "run", value: (row: { id: string; n: number; tools: string[] }) => row.id },
        { header: "n", value: (row) => row.n },
        { header: "tools", value: (row) => row.tools },
      ],
      [
        { id: "r1", n: 3, tools: ["a", "b"] },
        { id: "r,2", n: 0, tools: [] },
      ],
    );
    expect(csv).toBe('run,n,tools\r\nr1,3,a b\r\n"r,2",0,\r\n');
  });
});

describe("csvFileName", () => {
  it("is safe for a Content-Disposition header", () => {
    const now = new Date("2026-03-10T10:00:00Z");
    expect(csvFileName("runs", now)).toBe("runs-2026-03-10.csv");
    expect(csvFileName('run-a"b/c\\d', now)).toBe("run-a-b-c-d-2026-03-10.csv");
    expect(csvFileName("///", now)).toBe("export-2026-03-10.csv");
  });
});
