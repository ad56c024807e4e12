import { describe, expect, it } from "vitest";
import { bodyFor, buildPayload, publicBaseUrl, slackMessage } from "./payload";

const rule = {
  id: "2b0c4f3e-9d1a-4f5e-8a7b-1c2d3e4f5a6b",
  name: "Harmful drops <enforce>",
  tenantId: "acme",
  role: "action",
  mode: "enforce",
  metric: "harmful-drop-rate",
  comparison: "gt",
  threshold: 5,
  windowMinutes: 15,
} as const;
const minute = new Date("2026-12-01T10:00:00Z");

describe("alert messages", () => {
  it("the webhook body names rule, tenant, metric, value, threshold, window, state and the runs", () => {
    const payload = buildPayload(
      rule,
      "firing",
      { value: 7.25, sample: 312 },
      minute,
      60_000,
      "https://rl.example.com",
    );
    expect(payload).toEqual({
      type: "alert.firing",
      state: "firing",
      rule: { id: rule.id, name: rule.name },
      tenant: "acme",
      role: "action",
      mode: "enforce",
      metric: { id: "harmful-drop-rate", label: "harmful-drop rate", unit: "%" },
      value: 7.25,
      sample: 312,
      comparison: "gt",
      threshold: 5,
      window: { minutes: 15, from: "2026-12-01T09:46:00.000Z", to: "2026-12-01T10:01:00.000Z" },
      at: "2026-12-01T10:01:00.000Z",
      runsUrl:
        "https://rl.example.com/runs?tenant=acme&role=action&mode=enforce&range=custom&from=2026-12-01T09%3A46%3A00.000Z&to=2026-12-01T10%3A01%3A00.000Z",
      ruleUrl: `https://rl.example.com/alerts?rule=${rule.id}`,
    });
    expect(JSON.parse(bodyFor("webhook", payload))).toEqual(payload);
  });

  it("a rule over every tenant links to all runs", () => {
    const payload = buildPayload(
      { ...rule, tenantId: null, role: null, mode: null },
      "resolved",
      { value: 1, sample: 40 },
      minute,
      60_000,
      "http://localhost:3000",
    );
    expect(payload.tenant).toBeNull();
    expect(payload.runsUrl).toMatch(/^http:\/\/localhost:3000\/runs\?range=custom&from=/);
  });

  it("Slack gets an incoming-webhook text with escaped names and links", () => {
    const payload = buildPayload(
      rule,
      "firing",
      { value: 7.25, sample: 312 },
      minute,
      60_000,
      "https://rl.example.com",
    );
    const { text } = slackMessage(payload);
    expect(text).toMatch(
      /^:rotating_light: \*Firing\* Harmful drops &lt;enforce&gt;: harmful-drop rate 7\.3 % \(fires above 5\.0 %\) over 15 min, 312 in sample, tenant acme, role action, mode enforce\. </,
    );
    expect(text).toContain(`<${payload.runsUrl}|Runs>`);
    expect(JSON.parse(bodyFor("slack", payload))).toEqual({ text });
  });

  it("links point at ROUTELENS_URL without a trailing slash, else the local server", () => {
    expect(publicBaseUrl("https://rl.example.com/", 3000)).toBe("https://rl.example.com");
    expect(publicBaseUrl(undefined, 3261)).toBe("http://localhost:3261");
  });
});
