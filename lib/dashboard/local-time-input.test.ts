import { describe, expect, it } from "vitest";
import { isoToLocalInput, localInputToIso } from "./local-time-input";

describe("datetime-local values", () => {
  it("reads a datetime-local value in the local zone and writes one back", () => {
    const iso = localInputToIso("2026-03-01T14:30");
    expect(iso).not.toBeNull();
    expect(isoToLocalInput(iso)).toBe("2026-03-01T14:30");
    expect(localInputToIso("tomorrow")).toBeNull();
    expect(localInputToIso("")).toBeNull();
    expect(isoToLocalInput(null)).toBe("");
  });
});
