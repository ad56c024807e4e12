/**
 * Backtests from the backtest pages (SPEC §10): starting one and cancelling one. The viewer is
 * passed in, so the server actions (`backtest-actions.ts`) stay thin and the rules are tested
 * without a browser.
 *
 * Who may do what: maintainers of a tenant and admins start and cancel its backtests; viewers
 * read them. A backtest outside what the viewer may change is answered as if it did not exist.
 * Every start and cancel writes an audit row.
 */
import "server-only";
import { readBacktestConfig } from "@/lib/backtest/config";
import { windowOf } from "@/lib/backtest/form-values";
import { enqueueBacktest } from "@/lib/backtest/runner";
import { getPrisma } from "@/lib/db/client";
import { createBacktest, getBacktest, requestBacktestCancel } from "@/lib/db/queries/backtests";
import { getRoutingConfigVersion } from "@/lib/db/queries/routing-configs";
import {
  type BacktestForm,
  backtestCancelSchema,
  backtestFormSchema,
} from "@/lib/schemas/backtest-pages";
import { backtestInputSchema } from "@/lib/schemas/backtests";
import { routingConfigJsonSchema } from "@/lib/schemas/routing-config";
import { canMaintain, scopeOf, type Viewer } from "./access";
import { recordAudit } from "./audit";
import { type FormState, formError, readForm, typedValues } from "./form-state";

export interface BacktestFormState extends FormState {
  /** The backtest started. */
  backtestId?: string;
}

const TENANT_NOT_MAINTAINED =
  "Tenant is not one whose backtests you start: pick a tenant you maintain";

/** The backtest input's fields → the form fields they are shown beside. */
const INPUT_FIELDS: Record<string, string> = {
  tenantId: "tenant",
  roles: "roles",
  from: "from",
  to: "to",
  candidate: "candidateJson",
  baseline: "baselineJson",
  thresholdPercent: "thresholdPercent",
};

type ConfigRead =
  | { ok: true; json: unknown; version: string }
  | { ok: false; field: string; message: string };

/**
 * A config the form names: one of the tenant's stored versions, or pasted JSON read and
 * checked against the config JSON form. Refusals name the form field and the rule.
 */
async function readConfig(
  viewer: Viewer,
  form: BacktestForm,
  arm: "candidate" | "baseline",
): Promise<ConfigRead | null> {
  const source = arm === "candidate" ? form.candidateSource : form.baselineSource;
  const label = arm === "candidate" ? "Candidate" : "Baseline";
  if (source === "recorded") return null;
  let json: unknown;
  let field: string;
  if (source === "stored") {
    field = `${arm}Version`;
    const version = arm === "candidate" ? form.candidateVersion : form.baselineVersion;
    const stored = await getRoutingConfigVersion(scopeOf(viewer), form.tenant, {
      version: version ?? "",
    });
    if (!stored) {
      return {
        ok: false,
        field,
        message: `${label}: no stored config of ${form.tenant} has this version; pick one from the list`,
      };
    }
    json = stored.config;
  } else {
    field = `${arm}Json`;
    const text = arm === "candidate" ? form.candidateJson : form.baselineJson;
    try {
      json = JSON.parse(text ?? "");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, field, message: `${label}: not valid JSON (${reason})` };
    }
  }
  const checked = routingConfigJsonSchema.safeParse(json);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue?.path.map(String).join(".") || "config";
    return { ok: false, field, message: `${label}: ${path}: ${issue?.message ?? "invalid"}` };
  }
  const read = readBacktestConfig(json);
  if (!read.ok) return { ok: false, field, message: `${label}: ${read.error}` };
  return { ok: true, json, version: read.version };
}

/**
 * Starts a backtest from the new-backtest form for `viewer`, a maintainer of its tenant (or
 * an admin): stores it with its configs as snapshots, hands it to the job queue and writes a
 * `backtest-started` audit row. The answer names the new backtest, or the fields at fault.
 */
export async function startBacktestAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
  now: Date = new Date(),
): Promise<BacktestFormState> {
  const read = readForm(backtestFormSchema, form, { roles: form.getAll("roles").map(String) });
  if (!read.ok) return read.state;
  const fields = read.data;
  const values = typedValues(form);
  if (!canMaintain(viewer, fields.tenant))
    return formError("tenant", TENANT_NOT_MAINTAINED, values);
  const tenant = await getPrisma().tenant.findUnique({
    where: { id: fields.tenant },
    select: { id: true },
  });
  if (!tenant) {
    return formError("tenant", "Tenant does not exist: it has recorded no decisions", values);
  }
  const fieldErrors: Record<string, string> = {};
  const candidate = await readConfig(viewer, fields, "candidate");
  const baseline = await readConfig(viewer, fields, "baseline");
  for (const config of [candidate, baseline]) {
    if (config && !config.ok) fieldErrors[config.field] = config.message;
  }
  const window = windowOf(fields, now);
  const input = backtestInputSchema.safeParse({
    tenantId: fields.tenant,
    roles: fields.roles,
    from: window.from,
    to: window.to,
    candidate: candidate?.ok ? candidate.json : {},
    baseline: baseline?.ok ? baseline.json : null,
    thresholdPercent: fields.thresholdPercent,
  });
  if (!input.success) {
    for (const issue of input.error.issues) {
      const key = String(issue.path[0] ?? "form");
      // A preset window's bounds are computed here: its problem belongs to the window field.
      const field =
        fields.window !== "custom" && (key === "from" || key === "to")
          ? "window"
          : (INPUT_FIELDS[key] ?? "form");
      fieldErrors[field] ??= issue.message;
    }
  }
  if (Object.keys(fieldErrors).length > 0 || !input.success || !candidate?.ok) {
    return { fieldErrors, values };
  }
  const id = await createBacktest({
    input: input.data,
    candidateVersion: candidate.version,
    baselineVersion: baseline?.ok ? baseline.version : null,
    createdBy: viewer.userId,
  });
  await enqueueBacktest(id);
  await recordAudit({
    action: "backtest-started",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: fields.tenant,
    target: id,
    detail: {
      candidateVersion: candidate.version,
      baselineVersion: baseline?.ok ? baseline.version : null,
      from: input.data.from.toISOString(),
      to: input.data.to.toISOString(),
      roles: input.data.roles.join(",") || "all",
    },
    headers: requestHeaders,
  });
  return { done: "Backtest started.", backtestId: id };
}

const BACKTEST_NOT_FOUND =
  "No such backtest among those you may cancel: it may belong to a tenant you do not maintain. Reload the page.";

/**
 * Asks the backtest the form names to stop: a queued one is cancelled at once, a running one
 * stops before its next chunk. Writes a `backtest-cancelled` audit row.
 */
export async function cancelBacktestAs(
  viewer: Viewer,
  form: FormData,
  requestHeaders: Headers | null = null,
): Promise<BacktestFormState> {
  const read = readForm(backtestCancelSchema, form);
  if (!read.ok) return read.state;
  const scope = scopeOf(viewer);
  const backtest = await getBacktest(read.data.id, scope);
  if (!backtest || !canMaintain(viewer, backtest.tenantId)) return { error: BACKTEST_NOT_FOUND };
  const nothingToCancel = (state: string) => ({
    error: `This backtest is already ${state}: there is nothing to cancel.`,
  });
  if (backtest.state !== "queued" && backtest.state !== "running") {
    return nothingToCancel(backtest.state);
  }
  const state = await requestBacktestCancel(backtest.id, scope);
  if (state === null) return { error: BACKTEST_NOT_FOUND };
  if (state !== "cancelled" && state !== "cancelling") return nothingToCancel(state);
  await recordAudit({
    action: "backtest-cancelled",
    actorId: viewer.userId,
    actorEmail: viewer.email,
    tenantId: backtest.tenantId,
    target: backtest.id,
    detail: { replayed: backtest.progress.replayed, state },
    headers: requestHeaders,
  });
  return {
    done:
      state === "cancelled"
        ? "Cancelled before it started."
        : "Cancelling: the job stops before its next chunk.",
  };
}
