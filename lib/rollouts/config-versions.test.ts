import { describe, expect, it } from "vitest";
import {
  chooseConfigPair,
  configVersionFromToken,
  configVersionToken,
  listChangeMarkers,
  listConfigVersions,
} from "./config-versions";
import { DESIGNED_CELLS } from "./test-fixtures";
import type { CohortCell } from "./types";

describe("listConfigVersions", () => {
  it("lists each version with its first minute, decisions and modes", () => {
    expect(listConfigVersions(DESIGNED_CELLS)).toEqual([
      {
        configVersion: "cfg-a",
        token: "cfg-a",
        label: "cfg-a",
        firstSeen: "2026-03-02T07:12:00.000Z",
        lastBucket: "2026-03-02T07:00:00.000Z",
        decisions: 40,
        modes: ["observe"],
      },
      {
        configVersion: "cfg-b",
        token: "cfg-b",
        label: "cfg-b",
        firstSeen: "2026-03-02T08:30:00.000Z",
        lastBucket: "2026-03-02T10:00:00.000Z",
        decisions: 50,
        modes: ["enforce", "observe"],
      },
    ]);
  });

  it("names the empty version", () => {
    const cell = { ...(DESIGNED_CELLS[0] as CohortCell), configVersion: "" };
    const [version] = listConfigVersions([cell]);
    expect(version?.token).toBe("(none)");
    expect(version?.label).toBe("(no version)");
    expect(configVersionFromToken(configVersionToken(""))).toBe("");
    expect(configVersionFromToken("abc")).toBe("abc");
  });
});

describe("chooseConfigPair", () => {
  const versions = listConfigVersions([
    ...DESIGNED_CELLS,
    {
      ...(DESIGNED_CELLS[2] as CohortCell),
      configVersion: "cfg-c",
      firstSeen: new Date("2026-03-02T11:00:00Z"),
    },
  ]);
  const tokens = (pair: ReturnType<typeof chooseConfigPair>) =>
    pair ? [pair.before.token, pair.after.token, pair.chosen] : null;

  it("defaults to the most recent change", () => {
    expect(tokens(chooseConfigPair(versions, {}))).toEqual(["cfg-b", "cfg-c", false]);
  });

  it("takes both versions from the URL", () => {
    expect(tokens(chooseConfigPair(versions, { before: "cfg-a", after: "cfg-c" }))).toEqual([
      "cfg-a",
      "cfg-c",
      true,
    ]);
  });

  it("completes a half-given pair with the neighbouring version", () => {
    expect(tokens(chooseConfigPair(versions, { after: "cfg-b" }))).toEqual([
      "cfg-a",
      "cfg-b",
      true,
    ]);
    expect(tokens(chooseConfigPair(versions, { before: "cfg-a" }))).toEqual([
      "cfg-a",
      "cfg-b",
      true,
    ]);
    expect(tokens(chooseConfigPair(versions, { before: "cfg-c" }))).toEqual([
      "cfg-c",
      "cfg-b",
      true,
    ]);
    expect(tokens(chooseConfigPair(versions, { after: "cfg-a" }))).toEqual([
      "cfg-b",
      "cfg-a",
      true,
    ]);
  });

  it("ignores unknown or identical versions", () => {
    expect(tokens(chooseConfigPair(versions, { before: "nope", after: "gone" }))).toEqual([
      "cfg-b",
      "cfg-c",
      false,
    ]);
    expect(tokens(chooseConfigPair(versions, { before: "cfg-a", after: "cfg-a" }))).toEqual([
      "cfg-a",
      "cfg-b",
      true,
    ]);
  });

  it("needs two versions", () => {
    expect(chooseConfigPair(versions.slice(0, 1), {})).toBeNull();
  });
});

describe("listChangeMarkers", () => {
  it("marks the first appearance of every later mode and config version", () => {
    expect(listChangeMarkers(DESIGNED_CELLS, "hour")).toEqual([
      {
        t: Date.parse("2026-03-02T08:00:00Z"),
        at: "2026-03-02T08:30:00.000Z",
        kind: "config",
        value: "cfg-b",
      },
      {
        t: Date.parse("2026-03-02T10:00:00Z"),
        at: "2026-03-02T10:05:00.000Z",
        kind: "mode",
        value: "enforce",
      },
    ]);
  });

  it("snaps markers to the chart's bucket", () => {
    const [marker] = listChangeMarkers(DESIGNED_CELLS, "minute");
    expect(marker?.t).toBe(Date.parse("2026-03-02T08:30:00Z"));
    const [day] = listChangeMarkers(DESIGNED_CELLS, "day");
    expect(day?.t).toBe(Date.parse("2026-03-02T00:00:00Z"));
  });

  it("draws nothing when nothing changed", () => {
    expect(listChangeMarkers(DESIGNED_CELLS.slice(0, 1), "hour")).toEqual([]);
    expect(listChangeMarkers([], "hour")).toEqual([]);
  });
});
