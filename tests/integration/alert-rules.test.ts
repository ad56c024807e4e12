/**
 * Alert rules through the functions the alerts page's server actions call (the viewer passed
 * in): who may create, change, mute, delete and test which rules, the audit rows, the secret
 * shown once, and the form's "now" over data ingested through /api/ingest.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Viewer } from "@/lib/auth/access";
import {
  createRuleAs,
  deleteRuleAs,
  muteRuleAs,
  previewRuleAs,
  sendTestAs,
  updateRuleAs,
} from "@/lib/auth/alert-management";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import { deleteTenantRows } from "../support/tenant-rows";
import { formData, testViewer } from "../support/viewers";

const databaseUrl = inject("databaseUrl");
const baseUrl = inject("baseUrl");
const run = Date.now().toString(36);
const tenantA = `rules-a-${run}`;
const tenantB = `rules-b-${run}`;
const db = new pg.Client({ connectionString: databaseUrl });

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let receiver: Server;
let hookUrl: string;

let admin: Viewer;
let maintainerA: Viewer;
let viewerA: Viewer;
let maintainerB: Viewer;

beforeAll(async () => {
  await db.connect();
  await createApiKey(tenantA);
  await createApiKey(tenantB);
  admin = await testViewer(databaseUrl, {}, true);
  maintainerA = await testViewer(databaseUrl, { [tenantA]: "maintainer" });
  viewerA = await testViewer(databaseUrl, { [tenantA]: "viewer" });
  maintainerB = await testViewer(databaseUrl, { [tenantB]: "maintainer" });
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(request.url === "/broken" ? 500 : 200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await deleteTenantRows(db, tenantA);
  await deleteTenantRows(db, tenantB);
  await db.end();
});

const ruleFields = (overrides: Record<string, string | string[]> = {}) => ({
  name: "Empty palettes",
  tenant: tenantA,
  metric: "empty-palette-rate",
  windowMinutes: "15",
  comparison: "gt",
  threshold: "5",
  minSample: "10",
  channelKind: ["webhook"],
  channelUrl: [hookUrl],
  ...overrides,
});

async function auditRows(action: string, tenant: string | null) {
  const { rows } = await db.query(
    "SELECT actor_email, tenant_id, target FROM audit_log WHERE action = $1 AND tenant_id IS NOT DISTINCT FROM $2 ORDER BY id",
    [action, tenant],
  );
  return rows;
}

describe("alert rules: who may change them", () => {
  it("a maintainer creates a rule of their tenant; the webhook's secret is shown once and audited", async () => {
    const state = await createRuleAs(maintainerA, formData(ruleFields()));
    expect(state.error).toBeUndefined();
    expect(state.fieldErrors).toBeUndefined();
    expect(state.secrets).toHaveLength(1);
    const secret = state.secrets?.[0]?.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const { rows } = await db.query(
      "SELECT c.secret, r.created_by FROM alert_channels c JOIN alert_rules r ON r.id = c.rule_id WHERE r.id = $1",
      [state.ruleId],
    );
    expect(rows).toEqual([{ secret, created_by: maintainerA.userId }]);
    expect(await auditRows("alert-rule-created", tenantA)).toContainEqual({
      actor_email: maintainerA.email,
      tenant_id: tenantA,
      target: "Empty palettes",
    });
  });

  it("a viewer of the tenant, or a maintainer of another, cannot create, change or delete its rules", async () => {
    expect((await createRuleAs(viewerA, formData(ruleFields()))).fieldErrors?.tenant).toMatch(
      /^Tenant is not one whose alert rules you manage/,
    );
    expect((await createRuleAs(maintainerB, formData(ruleFields()))).fieldErrors?.tenant).toMatch(
      /^Tenant is not one/,
    );
    const created = await createRuleAs(maintainerA, formData(ruleFields({ name: "Kept" })));
    for (const other of [viewerA, maintainerB]) {
      expect((await deleteRuleAs(other, formData({ id: created.ruleId as string }))).error).toMatch(
        /^No such rule/,
      );
      expect(
        (
          await updateRuleAs(
            other,
            formData({ ...ruleFields({ name: "Taken" }), id: created.ruleId as string }),
          )
        ).error,
      ).toMatch(/^No such rule/);
      expect(
        (await muteRuleAs(other, formData({ id: created.ruleId as string, mutedUntil: "" }))).error,
      ).toMatch(/^No such rule/);
    }
    const { rows } = await db.query("SELECT name FROM alert_rules WHERE id = $1", [created.ruleId]);
    expect(rows).toEqual([{ name: "Kept" }]);
  });

  it("only admins make rules over every tenant", async () => {
    expect(
      (await createRuleAs(maintainerA, formData(ruleFields({ tenant: "*", channelUrl: [] }))))
        .fieldErrors?.tenant,
    ).toMatch(/only admins/);
    const state = await createRuleAs(admin, formData(ruleFields({ tenant: "*", channelUrl: [] })));
    const { rows } = await db.query("SELECT tenant_id FROM alert_rules WHERE id = $1", [
      state.ruleId,
    ]);
    expect(rows).toEqual([{ tenant_id: null }]);
    await deleteRuleAs(admin, formData({ id: state.ruleId as string }));
  });

  it("refuses a bad rule naming the field and the rule, and types the form back", async () => {
    const state = await createRuleAs(
      maintainerA,
      formData(ruleFields({ windowMinutes: "2", channelUrl: ["ftp://x"] })),
    );
    expect(state.fieldErrors).toEqual({
      windowMinutes: "Window must be between 5 minutes and 24 hours (5–1440 minutes)",
      "channels.0.url": "Webhook URL must start with http:// or https://",
    });
    expect(state.values?.name).toBe("Empty palettes");
  });
});

describe("alert rules: editing, muting, deleting", () => {
  it("an edit keeps a listed channel's secret, gives a new channel its own and drops the rest", async () => {
    const created = await createRuleAs(
      maintainerA,
      formData(
        ruleFields({ channelKind: ["webhook", "webhook"], channelUrl: [hookUrl, `${hookUrl}/2`] }),
      ),
    );
    const { rows: before } = await db.query(
      "SELECT id, url, secret FROM alert_channels WHERE rule_id = $1 ORDER BY url",
      [created.ruleId],
    );
    const first = before[0];
    const edited = await updateRuleAs(
      maintainerA,
      formData({
        ...ruleFields({
          threshold: "7",
          channelKind: ["webhook", "slack"],
          channelUrl: [hookUrl, "https://hooks.slack.com/services/T/B/X"],
        }),
        channelId: [first.id, ""],
        id: created.ruleId as string,
      }),
    );
    expect(edited.error).toBeUndefined();
    expect(edited.secrets).toEqual([]);
    const { rows: after } = await db.query(
      "SELECT id, kind, url, secret FROM alert_channels WHERE rule_id = $1 ORDER BY kind",
      [created.ruleId],
    );
    expect(after).toEqual([
      {
        id: expect.any(String),
        kind: "slack",
        url: "https://hooks.slack.com/services/T/B/X",
        secret: null,
      },
      { id: first.id, kind: "webhook", url: hookUrl, secret: first.secret },
    ]);
    const { rows: rule } = await db.query("SELECT threshold FROM alert_rules WHERE id = $1", [
      created.ruleId,
    ]);
    expect(rule).toEqual([{ threshold: 7 }]);
    expect(await auditRows("alert-rule-changed", tenantA)).toHaveLength(1);
    const moved = await updateRuleAs(
      admin,
      formData({ ...ruleFields({ tenant: tenantB }), id: created.ruleId as string }),
    );
    expect(moved.fieldErrors).toEqual({
      tenant: "Tenant of a saved rule cannot be changed: create a new rule for the other tenant",
    });
  });

  it("mutes until a future moment, unmutes, and audits both", async () => {
    const created = await createRuleAs(maintainerA, formData(ruleFields({ name: "Muted" })));
    const id = created.ruleId as string;
    expect(
      (await muteRuleAs(maintainerA, formData({ id, mutedUntil: "2000-01-01T00:00:00Z" })))
        .fieldErrors?.mutedUntil,
    ).toMatch(/^Muted until must be in the future/);
    const until = new Date(Date.now() + 3_600_000);
    expect(
      (await muteRuleAs(maintainerA, formData({ id, mutedUntil: until.toISOString() }))).done,
    ).toMatch(/muted until/);
    const { rows: muted } = await db.query("SELECT muted_until FROM alert_rules WHERE id = $1", [
      id,
    ]);
    expect(muted[0].muted_until.getTime()).toBe(until.getTime());
    await muteRuleAs(maintainerA, formData({ id, mutedUntil: "" }));
    const { rows: unmuted } = await db.query("SELECT muted_until FROM alert_rules WHERE id = $1", [
      id,
    ]);
    expect(unmuted).toEqual([{ muted_until: null }]);
    expect((await auditRows("alert-rule-muted", tenantA)).map((r) => r.target)).toContain("Muted");
    expect((await auditRows("alert-rule-unmuted", tenantA)).map((r) => r.target)).toContain(
      "Muted",
    );
  });

  it("deletes a rule with its channels; audited", async () => {
    const created = await createRuleAs(maintainerA, formData(ruleFields({ name: "Gone" })));
    expect(
      (await deleteRuleAs(maintainerA, formData({ id: created.ruleId as string }))).done,
    ).toMatch(/deleted/);
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM alert_channels WHERE rule_id = $1",
      [created.ruleId],
    );
    expect(rows).toEqual([{ n: 0 }]);
    expect((await auditRows("alert-rule-deleted", tenantA)).map((r) => r.target)).toContain("Gone");
  });
});

describe("alert rules: the form's now and send test", () => {
  it("shows the rule's current value over its window from ingested data", async () => {
    const { key } = await createApiKey(tenantB);
    const events = Array.from({ length: 40 }, (_, i) =>
      decisionEvent(i < 10 ? { warnings: [{ code: "empty_palette", stage: "intent" }] } : {}),
    );
    expect((await postBatch(baseUrl, key, events)).status).toBe(200);
    const input = { tenant: tenantB, metric: "empty-palette-rate", windowMinutes: "15" };
    const preview = await previewRuleAs(maintainerB, input);
    expect(preview).toMatchObject({
      ok: true,
      text: "25 % over 40 decisions",
      value: 25,
      sample: 40,
    });
    expect(await previewRuleAs(viewerA, input)).toEqual({
      ok: false,
      fieldErrors: { tenant: "Tenant is not one you can read" },
    });
    expect(await previewRuleAs(maintainerB, { ...input, windowMinutes: "3" })).toMatchObject({
      ok: false,
      fieldErrors: { windowMinutes: expect.stringMatching(/^Window must be/) },
    });
  });

  it("a 24-hour window (whole hours from rollup_hour, its ends from rollup_minute) sums as the minutes do", async () => {
    const tenant = `rules-long-${run}`;
    const { key } = await createApiKey(tenant);
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const events = [23 * 60 + 50, 300, 151, 150, 61, 12, 0].flatMap((minutes, i) =>
      Array.from({ length: i + 1 }, (_, j) =>
        decisionEvent({
          timestamp: ago(minutes),
          dropped_tokens: 10 * (j + 1),
          ...(j === 0 ? { warnings: [{ code: "empty_palette", stage: "intent" }] } : {}),
        }),
      ),
    );
    expect((await postBatch(baseUrl, key, events)).status).toBe(200);
    const long = await previewRuleAs(admin, {
      tenant,
      metric: "dropped-tokens",
      windowMinutes: "1440",
    });
    if (!long.ok) throw new Error(JSON.stringify(long));
    const { rows } = await db.query(
      "SELECT COALESCE(sum(dropped_tokens), 0)::int AS tokens, COALESCE(sum(decisions), 0)::int AS decisions FROM rollup_minute WHERE tenant_id = $1 AND bucket >= $2 AND bucket < $3",
      [tenant, new Date(long.from), new Date(long.to)],
    );
    expect(rows[0].decisions).toBe(28);
    expect({ value: long.value, sample: long.sample }).toEqual({
      value: rows[0].tokens,
      sample: 28,
    });
    const rate = await previewRuleAs(admin, {
      tenant,
      metric: "empty-palette-rate",
      windowMinutes: "1440",
    });
    expect(rate).toMatchObject({ ok: true, value: (100 * 7) / 28, sample: 28 });
    await deleteTenantRows(db, tenant);
  });

  it("sends a signed test message and logs its attempt; a failing receiver is reported", async () => {
    const created = await createRuleAs(
      maintainerA,
      formData(
        ruleFields({
          name: "Tested",
          channelKind: ["webhook", "webhook"],
          channelUrl: [hookUrl, hookUrl.replace("/hook", "/broken")],
        }),
      ),
    );
    const before = received.length;
    const state = await sendTestAs(maintainerA, formData({ id: created.ruleId as string }));
    expect(state.error).toMatch(
      /^Test not delivered\. .*\/hook: delivered \(200, \d+ ms\); .*\/broken: failed \(answered 500, \d+ ms\)$/,
    );
    const request = received
      .slice(before)
      .find((r) => r.headers["x-routelens-signature"] && JSON.parse(r.body).state === "test");
    if (!request) throw new Error("no test message received");
    const secret = created.secrets?.find((s) => s.url === hookUrl)?.secret as string;
    const timestamp = String(request.headers["x-routelens-timestamp"]);
    const hex = createHmac("sha256", secret).update(`${timestamp}.${request.body}`).digest("hex");
    expect(request.headers["x-routelens-signature"]).toBe(`sha256=${hex}`);
    const { rows } = await db.query(
      "SELECT d.kind, d.status, a.status_code FROM alert_deliveries d JOIN alert_delivery_attempts a ON a.delivery_id = d.id WHERE d.rule_id = $1 ORDER BY a.status_code",
      [created.ruleId],
    );
    expect(rows).toEqual([
      { kind: "test", status: "delivered", status_code: 200 },
      { kind: "test", status: "failed", status_code: 500 },
    ]);
    expect((await sendTestAs(viewerA, formData({ id: created.ruleId as string }))).error).toMatch(
      /^No such rule/,
    );
  });
});
