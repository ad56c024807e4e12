import { describe, expect, it } from "vitest";
import { compareCodePoints, paletteIdentity } from "./palette-identity";

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

describe("compareCodePoints", () => {
  const codePoints = (text: string) => Array.from(text, (c) => c.codePointAt(0) as number);
  /** The definition: the code point sequences compared element by element. */
  function reference(left: string, right: string): number {
    const a = codePoints(left);
    const b = codePoints(right);
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    }
    return a.length - b.length;
  }
  const names = [
    "😀",
    "\uFFFD",
    "\uE000",
    "𝔸",
    "z",
    "zz",
    "",
    "Ω",
    "\uD7FF",
    "a",
    "a\uD800",
    "a\uDC00x",
  ];

  it("agrees with code point order, lone surrogates included", () => {
    for (const a of names) {
      for (const b of names)
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(reference(a, b)));
    }
  });

  it("orders well-formed text as its UTF-8 bytes (PostgreSQL's C collation)", () => {
    const wellFormed = names.filter((name) => name.isWellFormed());
    const byBytes = [...wellFormed].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect([...wellFormed].sort(compareCodePoints)).toEqual(byBytes);
  });
});
