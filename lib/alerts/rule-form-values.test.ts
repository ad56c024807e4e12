import { describe, expect, it } from "vitest";
import { ruleFormValues } from "./rule-form-values";

describe("ruleFormValues", () => {
  it("fills the edit form from a stored rule: every tenant as *, empty optional fields", () => {
    const values = ruleFormValues({
      id: "r1",
      tenant: null,
      name: "All",
      role: null,
      mode: null,
      metric: "decisions",
      windowMinutes: 60,
      comparison: "lt",
      threshold: 1,
      minSample: 0,
      mutedUntil: new Date("2026-03-01T10:00:00Z"),
      channels: [{ id: "c1", kind: "webhook", url: "https://example.com/hook" }],
    });
    expect(values).toMatchObject({
      tenant: "*",
      role: "",
      mode: "",
      mutedUntil: "2026-03-01T10:00:00.000Z",
      channels: [{ id: "c1", kind: "webhook", url: "https://example.com/hook" }],
    });
  });
});
