/**
 * Alert rules from the alerts page (SPEC §9): creating, editing, muting and deleting rules,
 * sending a test message and previewing a rule's current value. The viewer is passed in, so
 * the server actions (`alert-actions.ts`) stay thin and the rules are tested without a
 * browser.
 *
 * Who may do what: maintainers of a rule's tenant and admins change its rules; only admins
 * make or change rules over every tenant; viewers of the tenant read them (and preview). A
 * rule outside what the viewer may change is answered as if it did not exist. Every change
 * writes an audit row. A new webhook channel gets a signing secret generated here, returned
 * once (`secrets`) and never shown again.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { sendTestMessage } from "@/lib/alerts/delivery";
import { buildPayload, publicBaseUrl } from "@/lib/alerts/payload";
import { generateSecret } from "@/lib/alerts/signature";
import { getPrisma } from "@/lib/db/client";
import { currentValue, getRule } from "@/lib/db/queries/alerts";
import { env } from "@/lib/env";
import {
  type AlertChannelInput,
  type AlertRuleInput,
  alertPreviewSchema,
  alertRuleIdSchema,
  alertRuleSchema,
  muteSchema,
} from "@/lib/schemas/alerts";
import { canMaintain, canRead, scopeOf, type Viewer } from "./access";
import { recordAudit } from "./audit";
import { type FormState, formError, readForm, typedValues } from "./form-state";

export interface AlertFormState extends FormState {
  /** The rule created or changed. */
  ruleId?: string;
  /** Secrets of webhook channels created by this change: shown once, never again. */
  secrets?: { url: string; secret: string }[];
}

const RULE_NOT_FOUND =
  "No such rule among the rules you manage. It may belong to a tenant you do not maintain; reload the page to see the current list.";
const TENANT_NOT_MAINTAINED =
  "Tenant is not one whose alert rules you manage: pick a tenant you maintain (only admins make rules over every tenant, *)";

/** Whether `viewer` may change rules of `tenant` (null: every tenant, admins only). */
export function canManageRules(viewer: Viewer, tenant: string | null): boolean {
  return tenant === null ? viewer.isAdmin : canMaintain(viewer, tenant);
}

/** The channels of a form: `channelKind`, `channelUrl` and `channelId` fields, in order. */
export function channelsOf(form: FormData): Record<string, string>[] {
  const kinds = form.getAll("channelKind").map(String);
  const urls = form.getAll("channelUrl").map(String);
  const ids = form.getAll("channelId").map(String);
  const channels: Record<string, string>[] = [];
  for (let i = 0; i < Math.max(kinds.length, urls.length); i++) {
    const kind = kinds[i] ?? "";
    const url = urls[i] ?? "";
    // A blank row of the form (no URL typed) is no channel.
    if (url.trim() === "") continue;
    channels.push({ kind, url, id: ids[i] ?? "" });
  }
  return channels;
}

function readRule(form: FormData) {
  return readForm(alertRuleSchema, form, { channels: channelsOf(form) });
}

function ruleData(rule: AlertRuleInput) {
  return {
    tenantId: rule.tenant,
    name: rule.name,
    role: rule.role ?? null,
    mode: rule.mode ?? null,
    metric: rule.metric,
    windowMinutes: rule.windowMinutes,
    comparison: rule.comparison,
    threshold: rule.threshold,
    minSample: rule.minSample,
    mutedUntil: rule.mutedUntil ?? null,
  };
}

/** New channels get an id and (webhooks) a secret; kept channels keep theirs. */
function newChannel(ruleId: string, tenant: string | null, channel: AlertChannelInput) {
  return {
    id: randomUUID(),
    ruleId,
    tenantId: tenant,
    kind: channel.kind,
    url: channel.url,
    secret: channel.kind === "webhook" ? generateSecret() : null,
  };
}

function auditDetail(rule: AlertRuleInput) {
  return {
    metric: rule.metric,
    comparison: rule.comparison,
    threshold: rule.threshold,
    windowMinutes: rule.windowMinutes,
    channels: rule.channels.length,
  };
}

/** Creates a rule from the rule form for `viewer`; writes an `alert-rule-created` audit row. */
export async function createRuleAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<AlertFormState> {
  const read = readRule(form);
  if (!read.ok) return read.state;
  const rule = read.data;
  if (!canManageRules(viewer, rule.tenant)) {
    return formError("tenant", TENANT_NOT_MAINTAINED, typedValues(form));
  }
  if (rule.tenant !== null) {
    const tenant = await getPrisma().tenant.findUnique({
      where: { id: rule.tenant },
      select: { id: true },
    });
    if (!tenant)
      return formError(
        "tenant",
        "Tenant does not exist: it has no ingest key yet",
        typedValues(form),
      );
  }
  const id = randomUUID();
  const channels = rule.channels.map((channel) => newChannel(id, rule.tenant, channel));
  const prisma = getPrisma();
  await prisma.$transaction([
    prisma.alertRule.create({ data: { id, ...ruleData(rule), createdBy: viewer.userId } }),
    prisma.alertChannel.createMany({ data: channels }),
  ]);
  await recordAudit({
    action: "alert-rule-created",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: rule.tenant,
    target: rule.name,
    detail: auditDetail(rule),
    headers: requestHeaders,
  });
  return {
    done: `Rule “${rule.name}” created.`,
    ruleId: id,
    secrets: secretsOf(channels),
  };
}

function secretsOf(channels: { url: string; secret: string | null }[]) {
  return channels.flatMap((channel) =>
    channel.secret ? [{ url: channel.url, secret: channel.secret }] : [],
  );
}

/** The rule `id` names if `viewer` may change it, else null. */
async function managedRule(viewer: Viewer, id: unknown) {
  const parsed = alertRuleIdSchema.safeParse(id);
  if (!parsed.success) return null;
  const rule = await getRule(scopeOf(viewer), parsed.data);
  return rule && canManageRules(viewer, rule.tenant) ? rule : null;
}

/**
 * Changes a rule from the rule form (`id` names it); its tenant stays. Channels listed with
 * their `channelId` keep their secret; new ones get one; channels left out are removed. The
 * rule's state and history stay. Writes an `alert-rule-changed` audit row.
 */
export async function updateRuleAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<AlertFormState> {
  const existing = await managedRule(viewer, form.get("id"));
  if (!existing) return { error: RULE_NOT_FOUND };
  const read = readRule(form);
  if (!read.ok) return read.state;
  const rule = read.data;
  if (rule.tenant !== existing.tenant) {
    // The history and deliveries belong to the tenant the rule watched; a rule for another
    // tenant is a new rule.
    return formError(
      "tenant",
      "Tenant of a saved rule cannot be changed: create a new rule for the other tenant",
      typedValues(form),
    );
  }
  // A channel keeps its id (and secret) when the form lists it with the same type.
  const known = new Map(existing.channels.map((channel) => [channel.id, channel.kind]));
  const isKept = (channel: AlertChannelInput) =>
    channel.id !== undefined && known.get(channel.id) === channel.kind;
  const kept = rule.channels.filter(isKept);
  const added = rule.channels
    .filter((channel) => !isKept(channel))
    .map((channel) => newChannel(existing.id, rule.tenant, { ...channel, id: undefined }));
  const keptIds = kept.map((channel) => channel.id as string);
  const prisma = getPrisma();
  await prisma.$transaction([
    prisma.alertRule.update({
      where: { id: existing.id },
      data: { ...ruleData(rule), updatedAt: new Date() },
    }),
    prisma.alertChannel.deleteMany({ where: { ruleId: existing.id, id: { notIn: keptIds } } }),
    ...kept.map((channel) =>
      prisma.alertChannel.update({
        where: { id: channel.id as string },
        data: { url: channel.url },
      }),
    ),
    prisma.alertChannel.createMany({ data: added }),
  ]);
  await recordAudit({
    action: "alert-rule-changed",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: rule.tenant,
    target: rule.name,
    detail: auditDetail(rule),
    headers: requestHeaders,
  });
  return { done: `Rule “${rule.name}” saved.`, ruleId: existing.id, secrets: secretsOf(added) };
}

/**
 * Mutes a rule until `mutedUntil` (or unmutes it: empty). A muted rule is still evaluated and
 * its transitions recorded; nothing is sent until the mute ends. Audited.
 */
export async function muteRuleAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<AlertFormState> {
  const read = readForm(muteSchema, form);
  if (!read.ok) return read.state;
  const existing = await managedRule(viewer, read.data.id);
  if (!existing) return { error: RULE_NOT_FOUND };
  const until = read.data.mutedUntil;
  if (until !== null && until.getTime() <= Date.now()) {
    return formError("mutedUntil", "Muted until must be in the future (leave it empty to unmute)");
  }
  await getPrisma().alertRule.update({
    where: { id: existing.id },
    data: { mutedUntil: until, updatedAt: new Date() },
  });
  await recordAudit({
    action: until ? "alert-rule-muted" : "alert-rule-unmuted",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: existing.tenant,
    target: existing.name,
    detail: until ? { until: until.toISOString() } : undefined,
    headers: requestHeaders,
  });
  return {
    done: until
      ? `Rule “${existing.name}” muted until ${until.toISOString()}.`
      : `Rule “${existing.name}” unmuted.`,
    ruleId: existing.id,
  };
}

/** Deletes a rule with its state, history, channels and deliveries. Audited. */
export async function deleteRuleAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<AlertFormState> {
  const existing = await managedRule(viewer, form.get("id"));
  if (!existing) return { error: RULE_NOT_FOUND };
  await getPrisma().alertRule.delete({ where: { id: existing.id } });
  await recordAudit({
    action: "alert-rule-deleted",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: existing.tenant,
    target: existing.name,
    detail: { metric: existing.metric },
    headers: requestHeaders,
  });
  return { done: `Rule “${existing.name}” deleted.` };
}

/**
 * "Send test": a test message to one of the rule's channels (`channelId`; every channel when
 * absent), sent at once; the answer says what each receiver answered. Logged as deliveries
 * of kind `test` with their attempt.
 */
export async function sendTestAs(viewer: Viewer, form: FormData): Promise<AlertFormState> {
  const existing = await managedRule(viewer, form.get("id"));
  if (!existing) return { error: RULE_NOT_FOUND };
  const channelId = form.get("channelId");
  const channels = existing.channels.filter((channel) => !channelId || channel.id === channelId);
  if (channels.length === 0) {
    return { error: "This rule has no such channel: add a webhook or Slack URL and save first." };
  }
  const e = env();
  const reading = await currentValue(
    {
      tenant: existing.tenant,
      role: existing.role,
      mode: existing.mode,
      metric: existing.metric,
      windowMinutes: existing.windowMinutes,
    },
    scopeOf(viewer),
  );
  const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const payload = buildPayload(
    { ...existing, tenantId: existing.tenant },
    "test",
    reading,
    minute,
    60_000,
    publicBaseUrl(e.ROUTELENS_URL, e.PORT),
  );
  const lines: string[] = [];
  let failed = false;
  for (const channel of channels) {
    const result = await sendTestMessage(channel.id, payload, {
      timeoutMs: e.ROUTELENS_ALERTS_TIMEOUT_MS,
      retryBaseMs: e.ROUTELENS_ALERTS_RETRY_BASE_MS,
    });
    failed ||= !result.ok;
    lines.push(
      result.ok
        ? `${channel.url}: delivered (${result.statusCode}, ${result.latencyMs} ms)`
        : `${channel.url}: failed (${result.error ?? "no answer"}, ${result.latencyMs} ms)`,
    );
  }
  return failed
    ? { error: `Test not delivered. ${lines.join("; ")}` }
    : { done: `Test sent. ${lines.join("; ")}` };
}

export type PreviewResult =
  | { ok: true; text: string; value: number | null; sample: number; from: string; to: string }
  | { ok: false; fieldErrors: Record<string, string> };

/**
 * The rule form's "now": the value of a rule not yet saved over its window, for a viewer who
 * reads its tenant ("now: 3.1 % over 312 decisions").
 */
export async function previewRuleAs(
  viewer: Viewer,
  input: Record<string, unknown>,
): Promise<PreviewResult> {
  const parsed = alertPreviewSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues)
      fieldErrors[issue.path.join(".") || "form"] ??= issue.message;
    return { ok: false, fieldErrors };
  }
  const target = parsed.data;
  const readable = target.tenant === null ? viewer.isAdmin : canRead(viewer, target.tenant);
  if (!readable) {
    return { ok: false, fieldErrors: { tenant: "Tenant is not one you can read" } };
  }
  const reading = await currentValue(target, scopeOf(viewer));
  return {
    ok: true,
    text: reading.text,
    value: reading.value,
    sample: reading.sample,
    from: reading.window.from.toISOString(),
    to: reading.window.to.toISOString(),
  };
}
