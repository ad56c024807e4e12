import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  countBatchItems,
  declaredGunzipSize,
  EARLY_COUNT_BYTES,
  ParseBudget,
  parseEnvelope,
  parseJsonInSlices,
  RequestRejected,
  readBody,
  utf8Text,
} from "./request";

const batchOf = (n: number, item = "{}") =>
  `{"batch":[${Array.from({ length: n }, () => item).join(",")}]}`;

describe("countBatchItems", () => {
  it("counts the items of the batch array whatever they hold", () => {
    expect(countBatchItems('{"batch":[]}', 1000)).toBe(0);
    expect(countBatchItems('{ "batch" : [ ] }', 1000)).toBe(0);
    expect(countBatchItems(batchOf(3), 1000)).toBe(3);
    expect(
      countBatchItems('{"batch":[{"a":[1,2,{"b":"],[,"}]}, "x,y", 3, [4,5], null]}', 1000),
    ).toBe(5);
    expect(countBatchItems('{"pad":[1,2,3],"batch":[1]}', 1000)).toBe(1);
    expect(countBatchItems('{"b\\u0061tch":[1,2]}', 1000)).toBe(2);
    expect(countBatchItems('{"note":"batch","x":[1,2]}', 1000)).toBe(0);
  });

  it("skips strings with escaped quotes and backslashes", () => {
    const text = JSON.stringify({ batch: ['a"b', "c\\", '\\"]', "[{,", { k: 'x\\"' }] });
    expect(countBatchItems(text, 1000)).toBe(JSON.parse(text).batch.length);
    expect(countBatchItems('{"batch":["unterminated', 1000)).toBe(1);
  });

  it("stops one past the limit", () => {
    expect(countBatchItems(batchOf(5000), 1000)).toBe(1001);
  });
});

describe("parseEnvelope", () => {
  it("accepts exactly the limit and refuses one more before parsing", async () => {
    await expect(parseEnvelope(batchOf(1000))).resolves.toHaveLength(1000);
    await expect(parseEnvelope(batchOf(1001))).rejects.toThrow(/at most 1000 per request/);
    const refused: unknown = await parseEnvelope(batchOf(1001)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestRejected);
    expect((refused as RequestRejected).status).toBe(413);
  });

  it("gives the same batch and the same errors whether it parses whole or in slices", async () => {
    const bodies = [
      batchOf(3, '{"a":[1,"],[,",{"b":"\\"}],"c":"x\\"y"}'),
      '{"pad":{"batch":[9]},"batch":[1,2,3],"z":null}',
      '{"batch":[1,,2]}',
      '{"batch":"[1]"}',
      "[[1]]",
      '{"batch":[1,2]',
    ];
    for (const body of bodies) {
      const whole = await parseEnvelope(body).catch((error: unknown) => error);
      const sliced = await parseEnvelope(body, 0).catch((error: unknown) => error);
      expect(sliced).toEqual(whole);
    }
    await expect(parseEnvelope('{"batch":[1,,2]}', 0)).rejects.toThrow(/^Body is not valid JSON: /);
  });
});

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function randomOf(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

type Random = ReturnType<typeof randomOf>;

const SPACES = ["", "", " ", "\n", "\t ", "\r\n  "];
const STRINGS = [
  '"a"',
  '"]"',
  '"["',
  '","',
  '"\\""',
  '"\\\\"',
  '"{\\"batch\\":[1,2]}"',
  '"\\u0062atch"',
  '"é✓"',
  '"\\ud83d\\ude00"',
];

function jsonValue(random: Random, depth: number): string {
  const space = () => random.pick(SPACES);
  const kind = random.int(depth > 3 ? 4 : 7);
  if (kind === 0) return random.pick(["0", "-1.5e3", "12", "1E-2", "true", "false", "null"]);
  if (kind <= 3) return random.pick(STRINGS);
  if (kind <= 4) {
    const length = random.int(4);
    const items = Array.from({ length }, () => space() + jsonValue(random, depth + 1) + space());
    return `[${items.join(",")}${length === 0 ? space() : ""}]`;
  }
  const length = random.int(4);
  const keys = Array.from(
    { length },
    () =>
      `${space()}${random.pick([...STRINGS, '"batch"'])}${space()}:${space()}${jsonValue(random, depth + 1)}${space()}`,
  );
  return `{${keys.join(",")}}`;
}

function envelopeText(random: Random): string {
  const space = () => random.pick(SPACES);
  const items = Array.from(
    { length: random.int(12) },
    () => space() + jsonValue(random, 2) + space(),
  );
  const batch = `[${items.join(",")}${items.length === 0 ? space() : ""}]`;
  const entries = [
    `${space()}${random.pick(['"batch"', '"b\\u0061tch"'])}${space()}:${space()}${batch}${space()}`,
  ];
  for (let extra = random.int(3); extra > 0; extra--) {
    const entry = `${space()}${random.pick([...STRINGS, '"batch"', '"pad"'])}${space()}:${space()}${jsonValue(random, 1)}${space()}`;
    entries.splice(random.int(entries.length + 1), 0, entry);
  }
  return `${space()}{${entries.join(",")}}${space()}`;
}

/** Breaks a text the way a hostile or truncated body is broken. */
function mangle(random: Random, text: string): string {
  const at = random.int(text.length + 1);
  switch (random.int(5)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + random.int(4));
    case 2:
      return (
        text.slice(0, at) +
        random.pick([",", "]", "[", "{", "}", '"', "\\", ":", "x", " ", "\u00a0"]) +
        text.slice(at)
      );
    case 3:
      return Array.from({ length: random.int(40) }, () =>
        random.pick(['{"batch":[', ",", "]", "}", '"', "1", " ", "[", "{", ":", "\\"]),
      ).join("");
    default:
      return text.slice(0, at) + text.slice(at).replace(/[,:]/, "");
  }
}

/** What a parse gives: its value, or the error's kind and message. */
async function outcome(parse: () => unknown): Promise<unknown> {
  try {
    return { value: await parse() };
  } catch (error) {
    return { error: error instanceof Error ? [error.name, error.message] : error };
  }
}

describe("parseJsonInSlices", () => {
  it("returns and throws exactly what JSON.parse does on generated, mangled and garbage texts", async () => {
    const random = randomOf(20261130);
    let valid = 0;
    let invalid = 0;
    for (let round = 0; round < 3000; round++) {
      const good = envelopeText(random);
      const text = random.int(3) === 0 ? good : mangle(random, good);
      const sliceChars = random.pick([0, 1, 7, 40, 1000]);
      const expected = await outcome(() => JSON.parse(text));
      expect(await outcome(() => parseJsonInSlices(text, sliceChars)), text).toEqual(expected);
      if ("value" in (expected as object)) valid += 1;
      else invalid += 1;
    }
    // The generator must exercise both sides, or the comparison proves little.
    expect(valid).toBeGreaterThan(1000);
    expect(invalid).toBeGreaterThan(1000);
  });

  it("parses a large batch in several steps, giving other work a turn between them", async () => {
    const text = batchOf(
      2000,
      JSON.stringify({ offered: Array.from({ length: 100 }, (_, i) => i) }),
    );
    const parsing = parseJsonInSlices(text, 16 * 1024);
    let ticks = 0;
    const counter = () => {
      ticks += 1;
      if (ticks < 1000) setImmediate(counter);
    };
    setImmediate(counter);
    const value = await parsing;
    expect(value).toEqual(JSON.parse(text));
    // Each slice is followed by a turn of the event loop, where `counter` runs again.
    expect(ticks).toBeGreaterThan(10);
  });
});

describe("ParseBudget", () => {
  it("refuses bytes past the limit with 503 and takes them back on release", () => {
    const budget = new ParseBudget(100);
    const first = budget.lease("a");
    first.take(45);
    const second = budget.lease("b");
    second.take(45);
    const third = budget.lease("c");
    expect(() => third.take(20)).toThrow(/busy reading other ingest requests/);
    third.take(10);
    expect(budget.inUse).toBe(100);
    first.release();
    second.release();
    third.release();
    expect(budget.inUse).toBe(0);
    second.release();
    expect(budget.inUse).toBe(0);
    expect(() => second.take(1)).toThrow(RequestRejected);
    expect(budget.inUse).toBe(0);
  });

  it("lets one tenant hold at most half of the bytes, leaving the rest to the others", () => {
    const budget = new ParseBudget(100);
    const attacker = budget.lease("a");
    attacker.take(50);
    let refused: unknown = null;
    try {
      budget.lease("a").take(1);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RequestRejected);
    expect((refused as RequestRejected).status).toBe(503);
    expect((refused as RequestRejected).retryAfterSeconds).toBe(1);
    expect((refused as RequestRejected).message).toMatch(/tenant may hold at most/);
    const other = budget.lease("b");
    other.take(50);
    expect(budget.inUseBy("a")).toBe(50);
    expect(budget.inUseBy("b")).toBe(50);
    attacker.release();
    expect(budget.inUseBy("a")).toBe(0);
    budget.lease("a").take(50);
  });
});

describe("readBody of a gzip body", () => {
  const gzipRequest = (compressed: Buffer) =>
    new Request("http://localhost/api/ingest", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
      body: new Uint8Array(compressed),
    });

  it("reads the size a gzip body declares in its trailer, at most the limit", () => {
    const text = batchOf(2_000);
    expect(declaredGunzipSize(gzipSync(text), 1 << 30)).toBe(text.length);
    expect(declaredGunzipSize(gzipSync(text), 100)).toBe(100);
    expect(declaredGunzipSize(Buffer.from([1, 2, 3]), 1 << 30)).toBe(0);
  });

  it("refuses a body whose declared size does not fit the budget before inflating it", async () => {
    const text = batchOf(200_000);
    const compressed = gzipSync(text);
    // The tenant's share is text.length + 1,000 bytes, and 1,000 of them are held already:
    // the raw body fits, its declared inflated size does not.
    const budget = new ParseBudget(2 * (text.length + 1_000));
    budget.lease("a").take(1_000);
    const lease = budget.lease("a");
    const taken: number[] = [];
    const watched = {
      take: (bytes: number) => {
        taken.push(bytes);
        lease.take(bytes);
      },
      release: () => lease.release(),
    };
    await expect(readBody(gzipRequest(compressed), watched)).rejects.toMatchObject({
      status: 503,
    });
    // The raw body, then the declared size in one piece: nothing was inflated.
    expect(taken).toEqual([compressed.length, text.length]);
  });

  it("refuses an envelope whose inflated start holds too many items, without inflating the rest", async () => {
    // 5 MiB of `{}` items, 5 kB gzipped; the trailer claims 10 bytes, so every byte inflated
    // past them is counted as it arrives.
    const text = batchOf(1_700_000);
    const compressed = Buffer.from(gzipSync(text));
    compressed.writeUInt32LE(10, compressed.length - 4);
    const budget = new ParseBudget(4 * text.length);
    const lease = budget.lease("a");
    await expect(
      readBody(gzipRequest(compressed), lease, { batchEnvelope: true }),
    ).rejects.toMatchObject({
      status: 413,
      message: "batch has more than 1000 events; at most 1000 per request.",
    });
    // Inflated and counted: the chunks before the count (the one that reached it is refused
    // before it is counted), not the 5 MiB.
    const inflated = budget.inUseBy("a") - compressed.length;
    expect(inflated).toBeGreaterThan(EARLY_COUNT_BYTES / 2);
    expect(inflated).toBeLessThanOrEqual(EARLY_COUNT_BYTES);
    lease.release();
  });

  it("reads a long valid envelope whole, and any body in full when it is not an envelope", async () => {
    // 1,000 items of about 300 bytes: past EARLY_COUNT_BYTES, and fewer than 1,000 items there.
    const item = JSON.stringify({ note: "x".repeat(285) });
    const valid = batchOf(1_000, item);
    expect(valid.length).toBeGreaterThan(EARLY_COUNT_BYTES);
    const budget = new ParseBudget(16 * 1024 * 1024);
    const lease = budget.lease("a");
    const read = await readBody(gzipRequest(gzipSync(valid)), lease, { batchEnvelope: true });
    expect(read).toBe(valid);
    lease.release();

    // Not an envelope (an OTLP export, say): inflated in full, whatever it holds.
    const items = batchOf(1_700_000);
    const other = budget.lease("a");
    expect(await readBody(gzipRequest(gzipSync(items)), other)).toBe(items);
    other.release();
  });

  it("still counts inflated bytes past a declared size that lies", async () => {
    const text = batchOf(200_000);
    const compressed = Buffer.from(gzipSync(text));
    compressed.writeUInt32LE(10, compressed.length - 4);
    const budget = new ParseBudget(2 * text.length);
    const lease = budget.lease("a");
    // zlib refuses the wrong length at the end; the bytes inflated until then were counted,
    // far more than the 10 declared.
    await expect(readBody(gzipRequest(compressed), lease)).rejects.toMatchObject({ status: 400 });
    expect(budget.inUseBy("a")).toBeGreaterThan(compressed.length + text.length / 2);
    lease.release();
    expect(budget.inUse).toBe(0);
  });
});

describe("utf8Text", () => {
  it("reads ASCII bytes, from a Buffer or any view of an ArrayBuffer, as the same text", () => {
    const text = '{"batch":[{"tool":"search_docs","n":1}]}';
    expect(utf8Text(Buffer.from(text))).toBe(text);
    const framed = new Uint8Array(Buffer.from(`xx${text}yy`));
    expect(utf8Text(framed.subarray(2, 2 + text.length))).toBe(text);
    expect(utf8Text(new Uint8Array(0))).toBe("");
  });

  it("reads ASCII bodies of every size the same, around the sizes read as slices", () => {
    // The last is shorter than the one before: the buffer the slices are read from is reused.
    const sizes = [131_072, 393_216, 393_217, 700_000, 1_031_913, 1_031_914, 393_300, 393_218];
    for (const [i, length] of sizes.entries()) {
      const text = `${i}abcdefghijklmnopqrstuvwxyz`.repeat(Math.ceil(length / 27)).slice(0, length);
      const framed = Buffer.from(`zz${text}zz`);
      const decoded = utf8Text(framed.subarray(2, 2 + length));
      expect(decoded.length).toBe(length);
      expect(decoded).toBe(text);
    }
  });

  it("decodes multi-byte characters as UTF-8, not byte by byte", () => {
    const text = '{"role":"caf\u00e9 \u2192 \u5de5\u5177 \ud83d\udee0"}';
    const decoded = utf8Text(Buffer.from(text, "utf8"));
    expect(decoded).toBe(text);
    expect(decoded).toContain("\u2192");
  });

  it("turns an invalid sequence into U+FFFD, as the UTF-8 decoder does", () => {
    const bytes = Buffer.from([0x7b, 0xff, 0x61, 0xe2, 0x82, 0x7d]);
    expect(utf8Text(bytes)).toBe(bytes.toString("utf8"));
    expect(utf8Text(bytes)).toContain("\ufffd");
  });
});
