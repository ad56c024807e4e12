import { describe, expect, it } from "vitest";
import { alertRuleSchema, meetsCondition } from "./alerts";

const valid = {
  name: "Harmful drops in acme",
  tenant: "acme",
  metric: "harmful-drop-rate",
  windowMinutes: "15",
  comparison: "gt",
  threshold: "5",
  minSample: "100",
  channels: [{ kind: "webhook", url: "https://hooks.example.com/routelens" }],
};

function messages(input: Record<string, unknown>): Record<string, string> {
  const result = alertRuleSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(
    result.error.issues.map((issue) => [issue.path.join("."), issue.message]),
  );
}

describe("alert rule schema", () => {
  it("reads a form's strings into a rule; empty optional fields are absent, * is every tenant", () => {
    const rule = alertRuleSchema.parse({ ...valid, role: "", mode: "", mutedUntil: "" });
    expect(rule).toMatchObject({ tenant: "acme", windowMinutes: 15, threshold: 5, minSample: 100 });
    expect(rule.role).toBeUndefined();
    expect(rule.mode).toBeUndefined();
    expect(rule.mutedUntil).toBeUndefined();
    expect(alertRuleSchema.parse({ ...valid, tenant: "*", mode: "off" })).toMatchObject({
      tenant: null,
      mode: "off",
    });
  });

  it("names the field and the rule in every refusal", () => {
    expect(messages({ ...valid, windowMinutes: "4" })).toEqual({
      windowMinutes: "Window must be between 5 minutes and 24 hours (5–1440 minutes)",
    });
    expect(messages({ ...valid, windowMinutes: "1441" }).windowMinutes).toMatch(
      /^Window must be between/,
    );
    expect(messages({ ...valid, threshold: "150" })).toEqual({
      threshold: "Threshold of a rate is a percentage: between 0 and 100",
    });
    expect(messages({ ...valid, threshold: "" }).threshold).toMatch(/^Threshold is required/);
    expect(messages({ ...valid, metric: "latency" }).metric).toMatch(
      /^Metric must be one of harmful-drop-rate/,
    );
    expect(messages({ ...valid, comparison: "eq" }).comparison).toMatch(/^Comparison must be/);
    expect(messages({ ...valid, minSample: "-1" })).toEqual({
      minSample: "Minimum sample must be 0 or more",
    });
    expect(messages({ ...valid, mode: "shadow" }).mode).toMatch(
      /^Mode must be observe, enforce or off/,
    );
    expect(messages({ ...valid, tenant: "no spaces" }).tenant).toMatch(/^Tenant letters, digits/);
    expect(messages({ ...valid, name: " " })).toEqual({ name: "Name must not be empty" });
  });

  it("accepts http(s) channel URLs only, Slack over https, without credentials", () => {
    const channel = (kind: string, url: string) =>
      messages({ ...valid, channels: [{ kind, url }] });
    expect(channel("webhook", "http://127.0.0.1:9000/hook")).toEqual({});
    expect(channel("webhook", "ftp://example.com/x")).toEqual({
      "channels.0.url": "Webhook URL must start with http:// or https://",
    });
    expect(channel("webhook", "not a url")).toEqual({
      "channels.0.url": "Webhook URL must be an absolute http(s) URL",
    });
    expect(channel("slack", "http://hooks.slack.com/services/x")).toEqual({
      "channels.0.url": "Slack webhook URL must start with https://",
    });
    expect(channel("webhook", "https://user:pw@example.com/")).toEqual({
      "channels.0.url": "Webhook URL must not contain a user name or password",
    });
    expect(channel("email", "x")["channels.0.kind"]).toBe("Channel type must be webhook or slack");
  });

  it("compares a value with the threshold as the rule says", () => {
    expect(meetsCondition(5, "gt", 5)).toBe(false);
    expect(meetsCondition(5, "gte", 5)).toBe(true);
    expect(meetsCondition(4, "lt", 5)).toBe(true);
    expect(meetsCondition(5, "lte", 5)).toBe(true);
  });
});
