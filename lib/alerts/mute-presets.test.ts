import { describe, expect, it } from "vitest";
import { isMuted, muteUntilFor } from "./mute-presets";

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
});
