import { describe, expect, it } from "vitest";
import {
  ceilToBucket,
  chooseGranularity,
  floorToBucket,
  GRANULARITY_MS,
  listBucketStarts,
  resolveTimeRange,
} from "./time-range";

const NOW = new Date("2026-03-10T14:37:12.345Z");
const HOUR = GRANULARITY_MS.hour;

describe("chooseGranularity", () => {
  it("uses minutes up to 6 hours, hours up to 8 days, days beyond", () => {
    expect(chooseGranularity(HOUR)).toBe("minute");
    expect(chooseGranularity(6 * HOUR)).toBe("minute");
    expect(chooseGranularity(6 * HOUR + 1)).toBe("hour");
    expect(chooseGranularity(8 * 24 * HOUR)).toBe("hour");
    expect(chooseGranularity(8 * 24 * HOUR + 1)).toBe("day");
  });
});

describe("floorToBucket / ceilToBucket", () => {
  it("snap to UTC boundaries", () => {
    const ms = NOW.getTime();
    expect(new Date(floorToBucket(ms, "minute")).toISOString()).toBe("2026-03-10T14:37:00.000Z");
    expect(new Date(floorToBucket(ms, "hour")).toISOString()).toBe("2026-03-10T14:00:00.000Z");
    expect(new Date(floorToBucket(ms, "day")).toISOString()).toBe("2026-03-10T00:00:00.000Z");
    expect(new Date(ceilToBucket(ms, "hour")).toISOString()).toBe("2026-03-10T15:00:00.000Z");
    const boundary = Date.parse("2026-03-10T14:00:00Z");
    expect(ceilToBucket(boundary, "hour")).toBe(boundary);
  });
});

describe("resolveTimeRange presets", () => {
  it("last hour is 60 minute buckets ending with the minute in progress", () => {
    const range = resolveTimeRange({ range: "1h" }, NOW);
    expect(range).not.toBeNull();
    expect(range?.granularity).toBe("minute");
    expect(range?.bucketCount).toBe(60);
    expect(range?.from.toISOString()).toBe("2026-03-10T13:38:00.000Z");
    expect(range?.to.toISOString()).toBe("2026-03-10T14:38:00.000Z");
  });

  it("last 24 hours is 24 hour buckets and the previous period is the 24 before", () => {
    const range = resolveTimeRange({ range: "24h" }, NOW);
    expect(range?.granularity).toBe("hour");
    expect(range?.bucketCount).toBe(24);
    expect(range?.from.toISOString()).toBe("2026-03-09T15:00:00.000Z");
    expect(range?.to.toISOString()).toBe("2026-03-10T15:00:00.000Z");
    expect(range?.previous.from.toISOString()).toBe("2026-03-08T15:00:00.000Z");
    expect(range?.previous.to.toISOString()).toBe("2026-03-09T15:00:00.000Z");
  });

  it("last 7 days is 168 hours; last 30 days is 30 UTC days", () => {
    expect(resolveTimeRange({ range: "7d" }, NOW)?.bucketCount).toBe(168);
    const month = resolveTimeRange({ range: "30d" }, NOW);
    expect(month?.granularity).toBe("day");
    expect(month?.bucketCount).toBe(30);
    expect(month?.from.toISOString()).toBe("2026-02-09T00:00:00.000Z");
    expect(month?.to.toISOString()).toBe("2026-03-11T00:00:00.000Z");
  });

  it("all time has no window", () => {
    expect(resolveTimeRange({ range: "all" }, NOW)).toBeNull();
  });
});

describe("resolveTimeRange custom", () => {
  it("snaps outward to the granularity the span calls for", () => {
    const range = resolveTimeRange(
      { range: "custom", from: "2026-03-10T10:15:30Z", to: "2026-03-10T12:40:10Z" },
      NOW,
    );
    expect(range?.preset).toBe("custom");
    expect(range?.granularity).toBe("minute");
    expect(range?.from.toISOString()).toBe("2026-03-10T10:15:00.000Z");
    expect(range?.to.toISOString()).toBe("2026-03-10T12:41:00.000Z");
    expect(range?.bucketCount).toBe(146);
    expect(range?.previous.to.toISOString()).toBe("2026-03-10T10:15:00.000Z");
    expect(range?.fellBack).toBe(false);
  });

  it("accepts offsets other than Z", () => {
    const range = resolveTimeRange(
      { range: "custom", from: "2026-03-01T00:00:00+02:00", to: "2026-03-05T00:00:00+02:00" },
      NOW,
    );
    expect(range?.granularity).toBe("hour");
    expect(range?.from.toISOString()).toBe("2026-02-28T22:00:00.000Z");
  });

  it("falls back to the last 24 hours when dates are missing, reversed or too far apart", () => {
    for (const input of [
      { range: "custom" as const },
      { range: "custom" as const, from: "2026-03-10T10:00:00Z" },
      { range: "custom" as const, from: "2026-03-10T10:00:00Z", to: "2026-03-10T09:00:00Z" },
      { range: "custom" as const, from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" },
      { range: "custom" as const, from: "yesterday", to: "today" },
    ]) {
      const range = resolveTimeRange(input, NOW);
      expect(range?.fellBack).toBe(true);
      expect(range?.preset).toBe("24h");
    }
  });
});

describe("listBucketStarts", () => {
  it("lists every bucket start of the range", () => {
    const range = resolveTimeRange({ range: "24h" }, NOW);
    if (!range) throw new Error("expected a range");
    const starts = listBucketStarts(range);
    expect(starts).toHaveLength(24);
    expect(starts[0]).toBe(range.from.getTime());
    expect(starts[23]).toBe(range.to.getTime() - HOUR);
  });
});
