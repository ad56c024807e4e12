import { describe, expect, it } from "vitest";
import { backtestInputSchema } from "./backtests";

const base = {
  tenantId: "acme",
  from: "2026-11-20T00:00:00Z",
  to: "2026-11-27T00:00:00Z",
  candidate: { roleTools: {} },
};

function messages(input: unknown): string[] {
  const parsed = backtestInputSchema.safeParse(input);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("backtestInputSchema", () => {
  it("accepts a week with defaults: every role, no baseline, a 1% threshold", () => {
    const parsed = backtestInputSchema.parse({ ...base, roles: ["b", "a", "b"] });
    expect(parsed.roles).toEqual(["a", "b"]);
    expect(parsed.baseline).toBeNull();
    expect(parsed.thresholdPercent).toBe(1);
    expect(parsed.to.getTime() - parsed.from.getTime()).toBe(7 * 86_400_000);
  });

  it("refuses a window longer than 30 days or ending before it starts, naming `to`", () => {
    expect(messages({ ...base, to: "2026-12-20T00:00:01Z" })).toEqual([
      "to: the window must be at most 30 days",
    ]);
    expect(messages({ ...base, to: base.from })).toEqual(["to: to must be after from"]);
  });

  it("names the field of every other refusal", () => {
    expect(messages({ ...base, candidate: undefined })).toEqual([
      "candidate: candidate config is required",
    ]);
    expect(messages({ ...base, from: "yesterday" })).toEqual([
      "from: from must be a date and time (ISO 8601)",
    ]);
    expect(messages({ ...base, tenantId: "a b" })).toEqual([
      "tenantId: letters, digits, '.', '_' and '-' only",
    ]);
    expect(messages({ ...base, roles: [""] })).toEqual(["roles.0: a role must not be empty"]);
    expect(messages({ ...base, candidate: { roleTools: { support: "search" } } })[0]).toMatch(
      /^candidate\.roleTools\.support: /,
    );
    expect(messages({ ...base, baseline: { palettes: {} } })[0]).toMatch(
      /^baseline: unknown field\(s\) palettes/,
    );
    expect(messages({ ...base, thresholdPercent: 90 })).toEqual([
      "thresholdPercent: thresholdPercent must be at most 50",
    ]);
  });
});
