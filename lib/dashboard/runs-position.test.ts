import { describe, expect, it } from "vitest";
import type { RunSortKey } from "@/lib/schemas/dashboard";
import { decodeRunKey, encodeRunKey, isSortValue, runsPositionOf } from "./runs-position";

const key = { value: "2026-03-01T12:00:00.123Z", tenantId: "acme", runId: "run/1 ü" };

describe("run keys in URLs", () => {
  it("round-trip for the order they were written for", () => {
    const text = encodeRunKey("lastSeen", key);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeRunKey("lastSeen", text)).toEqual(key);
    expect(decodeRunKey("firstSeen", text)).toBeNull();
  });

  it("refuse anything that is not a key of a row", () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const cases: [RunSortKey, string][] = [
      ["lastSeen", "%%%"],
      ["lastSeen", encode("x")],
      ["lastSeen", encode(["lastSeen", key.value, "acme"])],
      ["lastSeen", encode(["lastSeen", 5, "acme", "r"])],
      ["lastSeen", encode(["lastSeen", key.value, "", "r"])],
      ["lastSeen", encode(["lastSeen", key.value, "acme", "r\u0000"])],
      ["lastSeen", encode(["lastSeen", key.value, "a".repeat(101), "r"])],
      ["lastSeen", encode(["lastSeen", key.value, "acme", "r".repeat(201)])],
      ["lastSeen", encode(["lastSeen", "2026-02-30T00:00:00.000Z", "acme", "r"])],
      ["droppedTokens", encode(["droppedTokens", "9223372036854775808", "acme", "r"])],
      ["runId", encode(["runId", "x", "acme", "r"])],
    ];
    for (const [sort, text] of cases) expect(decodeRunKey(sort, text)).toBeNull();
  });
});

describe("sort values", () => {
  it("are checked against the column's type and range", () => {
    expect(isSortValue("bigint", "9223372036854775807")).toBe(true);
    expect(isSortValue("bigint", "-9223372036854775808")).toBe(true);
    expect(isSortValue("bigint", "9223372036854775808")).toBe(false);
    expect(isSortValue("bigint", "1e3")).toBe(false);
    expect(isSortValue("timestamptz", "2026-03-01T12:00:00.123Z")).toBe(true);
    expect(isSortValue("timestamptz", "2026-03-01 12:00:00+00")).toBe(false);
    expect(isSortValue(null, "")).toBe(true);
    expect(isSortValue(null, "acme")).toBe(false);
  });
});

describe("runsPositionOf", () => {
  it("reads after, before and last, in that order of precedence", () => {
    const after = encodeRunKey("lastSeen", key);
    expect(runsPositionOf({ sort: "lastSeen", after, last: true })).toEqual({ kind: "after", key });
    expect(runsPositionOf({ sort: "lastSeen", before: after, last: false })).toEqual({
      kind: "before",
      key,
    });
    expect(runsPositionOf({ sort: "lastSeen", last: true })).toEqual({ kind: "last" });
    expect(runsPositionOf({ sort: "lastSeen", last: false })).toEqual({ kind: "first" });
  });

  it("starts at the first page for a key of another order", () => {
    const after = encodeRunKey("lastSeen", key);
    expect(runsPositionOf({ sort: "droppedTokens", after, last: false })).toEqual({
      kind: "first",
    });
  });
});
