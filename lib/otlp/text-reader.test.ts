import { describe, expect, it } from "vitest";
import { LongTexts } from "./text-reader";

const bytesOf = (text: string) => Buffer.from(text, "utf8");
/** A 2 kB JSON-like text whose byte `at` is `char`. */
const textWith = (at: number, char: string) => {
  const chars = "a".repeat(2048).split("");
  chars[at] = char;
  return chars.join("");
};

describe("LongTexts", () => {
  it("answers a text's bytes with the text, and keeps it from its second sighting on", () => {
    const texts = new LongTexts();
    const text = `[${'{"name":"search","description":"é"},'.repeat(60)}{}]`;
    const body = Buffer.concat([Buffer.from("prefix"), bytesOf(text), Buffer.from("suffix")]);
    const end = 6 + Buffer.byteLength(text);
    expect(texts.read(body, 6, end)).toBe(text);
    expect(texts.size.texts).toBe(0);
    expect(texts.read(body, 6, end)).toBe(text);
    expect(texts.size).toEqual({ texts: 1, bytes: Buffer.byteLength(text) });
    // Kept: the same bytes elsewhere in another buffer are the same text.
    expect(texts.read(bytesOf(text), 0, Buffer.byteLength(text))).toBe(text);
    expect(texts.size.texts).toBe(1);
  });

  it("compares the bytes whole, not only those its fingerprint samples", () => {
    const texts = new LongTexts();
    const kept = textWith(5, "b");
    const other = textWith(5, "c"); // the same length and sampled words
    texts.read(bytesOf(kept), 0, 2048);
    texts.read(bytesOf(kept), 0, 2048);
    expect(texts.read(bytesOf(other), 0, 2048)).toBe(other);
    expect(texts.read(bytesOf(kept), 0, 2048)).toBe(kept);
  });

  it("refuses bytes that are not UTF-8", () => {
    const texts = new LongTexts();
    const body = bytesOf(textWith(100, "x"));
    body[100] = 0xff;
    expect(() => texts.read(body, 0, body.length)).toThrow(
      expect.objectContaining({ code: "ERR_ENCODING_INVALID_ENCODED_DATA" }),
    );
  });

  it("keeps at most 4 MiB of texts, dropping them all when full", () => {
    const texts = new LongTexts();
    for (let i = 0; i < 3_000; i++) {
      const body = bytesOf(`${i}:${"z".repeat(2_000)}`);
      texts.read(body, 0, body.length);
      expect(texts.read(body, 0, body.length)).toBe(`${i}:${"z".repeat(2_000)}`);
      expect(texts.size.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    }
    expect(texts.size.texts).toBeGreaterThan(0);
    expect(texts.size.texts).toBeLessThan(3_000);
  });
});
