import { describe, expect, it } from "vitest";
import { isMuted, isoToLocalInput, localInputToIso, muteUntilFor } from "./mute-presets";

describe("mute presets", () => {
  it("counts a preset from the moment given", () => {
    const now = new Date("2026-03-01T12:00:00Z");
    expect(muteUntilFor("1h", now).toISOString()).toBe("2026-03-01T13:00:00.000Z");
    expect(muteUntilFor("7d", now).toISOString()).toBe("2026-03-08T12:00:00.000Z");
  });

  it("is muted only while the time lies ahead", () => {
    const now = new Date("2026-03-01T12:00:00Z");
    expect(isMuted(null, now)).toBe(false);
    expect(isMuted("2026-03-01T12:00:01Z", now)).toBe(true);
    expect(isMuted(new Date("2026-03-01T12:00:00Z"), now)).toBe(false);
  });

  it("reads a datetime-local value in the local zone and writes one back", () => {
    const iso = localInputToIso("2026-03-01T14:30");
    expect(iso).not.toBeNull();
    expect(isoToLocalInput(iso)).toBe("2026-03-01T14:30");
    expect(localInputToIso("tomorrow")).toBeNull();
    expect(localInputToIso("")).toBeNull();
    expect(isoToLocalInput(null)).toBe("");
  });
});
