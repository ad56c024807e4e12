import { describe, expect, it } from "vitest";
import { paletteIdentity } from "./palette-identity";

describe("paletteIdentity", () => {
  it('is "*" for no palette (the full tool list)', () => {
    expect(paletteIdentity(null)).toBe("*");
    expect(paletteIdentity(null, "search")).toBe("*\u0001!search");
  });

  it("joins the sorted names with U+0000", () => {
    expect(paletteIdentity(["b", "a", "c"])).toBe("a\u0000b\u0000c");
    expect(paletteIdentity([])).toBe("");
  });

  it("ignores order and duplicates", () => {
    expect(paletteIdentity(["refund", "search"])).toBe(paletteIdentity(["search", "refund"]));
    expect(paletteIdentity(new Set(["a", "b"]))).toBe(paletteIdentity(["b", "a", "b"]));
  });

  it("distinguishes the same tools with and without a forced choice", () => {
    const unforced = paletteIdentity(["a", "b"]);
    const forced = paletteIdentity(["a", "b"], "a");
    expect(forced).not.toBe(unforced);
    expect(forced).toBe("a\u0000b\u0001!a");
    expect(paletteIdentity(["a", "b"], null)).toBe(unforced);
    expect(paletteIdentity(["a", "b"], "b")).not.toBe(forced);
  });

  it("sorts by code point, as a Python agent would", () => {
    // U+FF21 sorts before U+1F600 by code point, after it by UTF-16 unit.
    expect(paletteIdentity(["😀", "Ａ"])).toBe("Ａ\u0000😀");
  });
});
