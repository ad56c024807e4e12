"use client";

/**
 * The alert rule form (create and edit). Before saving it shows the rule's current value over
 * its window ("now: 3.1 % over 312 decisions"), asked of the server again whenever the fields it
 * depends on change. A refusal names the field and the rule it broke, beside the field. A new
 * webhook's signing secret is shown once after saving.
 */
import Link from "next/link";
import { useActionState, useEffect, useId, useState, useTransition } from "react";
import { describedBy, FieldError, FormError } from "@/components/auth/field-error";
import { METRICS } from "@/lib/alerts/metrics";
import type { RuleFormValues } from "@/lib/alerts/rule-form-values";
import { type RulePreview, toRulePreview } from "@/lib/alerts/rule-preview";
import { isAlertMetric } from "@/lib/alerts/rule-view";
import { createAlertRule, previewAlertRule, updateAlertRule } from "@/lib/auth/alert-actions";
import type { AlertFormState } from "@/lib/auth/alert-management";
import { isoToLocalInput, localInputToIso } from "@/lib/dashboard/local-time-input";
import {
  ALERT_COMPARISONS,
  ALERT_METRICS,
  ALERT_MODES,
  ALL_TENANTS_VALUE,
  CHANNELS_MAX,
  COMPARISON_TEXT,
  WINDOW_MINUTES_MAX,
  WINDOW_MINUTES_MIN,
} from "@/lib/schemas/alerts";
import { NewSecretsBox } from "./new-secrets-box";

const PREVIEW_DELAY_MS = 350;

interface ChannelDraft {
  /** A key for React; the stored id for an existing channel. */
  key: string;
  id: string | undefined;
  kind: "webhook" | "slack";
  url: string;
}

export function RuleForm({
  tenants,
  allowAllTenants,
  initial,
}: {
  /** The tenants the viewer maintains (every tenant for an admin). */
  tenants: readonly string[];
  /** Admins may write a rule over every tenant. */
  allowAllTenants: boolean;
  /** The rule being edited; absent to create one. */
  initial?: RuleFormValues | undefined;
}) {
  const editing = initial?.id !== undefined;
  const [state, action, pending] = useActionState(
    editing ? updateAlertRule : createAlertRule,
    {} as AlertFormState,
  );
  const formId = useId();
  const [fields, setFields] = useState({
    tenant: initial?.tenant ?? tenants[0] ?? (allowAllTenants ? ALL_TENANTS_VALUE : ""),
    role: initial?.role ?? "",
    mode: initial?.mode ?? "",
    metric: initial?.metric ?? "harmful-drop-rate",
    windowMinutes: String(initial?.windowMinutes ?? 15),
    comparison: initial?.comparison ?? "gt",
    threshold: initial?.threshold === undefined ? "" : String(initial.threshold),
    minSample: String(initial?.minSample ?? 0),
  });
  const [mutedLocal, setMutedLocal] = useState("");
  const [channels, setChannels] = useState<ChannelDraft[]>(
    (initial?.channels ?? []).map((channel) => ({ ...channel, key: channel.id ?? channel.url })),
  );
  const [preview, setPreview] = useState<RulePreview | null>(null);
  const [previewing, startPreview] = useTransition();

  // The stored mute is shown in the browser's own time once it runs here.
  useEffect(() => {
    setMutedLocal(isoToLocalInput(initial?.mutedUntil));
  }, [initial?.mutedUntil]);

  const { tenant, role, mode, metric, windowMinutes, comparison, threshold, minSample } = fields;
  useEffect(() => {
    const typed = { tenant, role, mode, metric, windowMinutes, comparison, threshold, minSample };
    const timer = window.setTimeout(() => {
      startPreview(async () => {
        const answer = await previewAlertRule(typed);
        setPreview(
          isAlertMetric(typed.metric)
            ? toRulePreview(answer, typed.metric, typed)
            : { ok: false, field: "metric", message: "Metric is not one of the list" },
        );
      });
    }, PREVIEW_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [tenant, role, mode, metric, windowMinutes, comparison, threshold, minSample]);

  const set = (name: keyof typeof fields) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));
  const definition = METRICS[metric as keyof typeof METRICS];
  const unit = definition?.unit ?? "";
  const saved = state.done !== undefined && state.fieldErrors === undefined && !state.error;

  const addChannel = (kind: ChannelDraft["kind"]) =>
    setChannels((current) => [
      ...current,
      { key: `new-${Date.now()}-${current.length}`, id: undefined, kind, url: "" },
    ]);

  if (!editing && state.ruleId) {
    // Created: the form gives way to the answer, so the rule is not created twice.
    return (
      <div className="form-stack rule-form">
        <p role="status" data-testid="rule-saved">
          {state.done} <Link href={`/alerts/${state.ruleId}`}>Open the rule</Link> ·{" "}
          <a href="/alerts/new">Create another rule</a>
        </p>
        {state.secrets && state.secrets.length > 0 ? (
          <NewSecretsBox secrets={state.secrets} />
        ) : null}
      </div>
    );
  }

  return (
    <div className="form-stack rule-form">
      <form action={action} className="rule-fields" aria-describedby={`${formId}-preview`}>
        {initial?.id ? <input type="hidden" name="id" value={initial.id} /> : null}
        <label className="field">
          Name
          <input
            type="text"
            name="name"
            defaultValue={state.values?.name ?? initial?.name}
            maxLength={200}
            required
            placeholder="e.g. support: harmful drops in enforce"
            {...describedBy(state, "name")}
          />
          <FieldError state={state} name="name" />
        </label>
        {editing ? (
          // A saved rule keeps its tenant: its history and deliveries belong to it.
          <div className="field">
            <span>Tenant</span>
            <input type="hidden" name="tenant" value={tenant} />
            <strong data-testid="rule-tenant">
              {tenant === ALL_TENANTS_VALUE ? "all tenants" : tenant}
            </strong>
            <span className="small">
              Kept when the rule is edited: a new rule for another tenant.
            </span>
            <FieldError state={state} name="tenant" />
          </div>
        ) : (
          <label className="field">
            Tenant
            <select
              name="tenant"
              value={tenant}
              onChange={set("tenant")}
              {...describedBy(state, "tenant")}
            >
              {allowAllTenants ? <option value={ALL_TENANTS_VALUE}>all tenants</option> : null}
              {tenants.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
            <FieldError state={state} name="tenant" />
          </label>
        )}
        <label className="field">
          Role (optional)
          <input
            type="text"
            name="role"
            value={role}
            onChange={set("role")}
            placeholder="any role"
            maxLength={200}
            {...describedBy(state, "role")}
          />
          <FieldError state={state} name="role" />
        </label>
        <label className="field">
          Mode (optional)
          <select name="mode" value={mode} onChange={set("mode")} {...describedBy(state, "mode")}>
            <option value="">any mode</option>
            {ALERT_MODES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
          <FieldError state={state} name="mode" />
        </label>
        <label className="field">
          Metric
          <select
            name="metric"
            value={metric}
            onChange={set("metric")}
            {...describedBy(state, "metric")}
          >
            {ALERT_METRICS.map((value) => (
              <option key={value} value={value}>
                {METRICS[value].label}
              </option>
            ))}
          </select>
          {definition ? <span className="small">{definition.description}</span> : null}
          <FieldError state={state} name="metric" />
        </label>
        <label className="field">
          Window (minutes, {WINDOW_MINUTES_MIN}–{WINDOW_MINUTES_MAX})
          <input
            type="number"
            name="windowMinutes"
            value={windowMinutes}
            onChange={set("windowMinutes")}
            min={WINDOW_MINUTES_MIN}
            max={WINDOW_MINUTES_MAX}
            step={1}
            required
            {...describedBy(state, "windowMinutes")}
          />
          <FieldError state={state} name="windowMinutes" />
        </label>
        <label className="field">
          Fires when the value is
          <select
            name="comparison"
            value={comparison}
            onChange={set("comparison")}
            {...describedBy(state, "comparison")}
          >
            {ALERT_COMPARISONS.map((value) => (
              <option key={value} value={value}>
                {COMPARISON_TEXT[value]}
              </option>
            ))}
          </select>
          <FieldError state={state} name="comparison" />
        </label>
        <label className="field">
          Threshold{unit ? ` (${unit})` : ""}
          <input
            type="number"
            name="threshold"
            value={threshold}
            onChange={set("threshold")}
            min={0}
            max={unit === "%" ? 100 : undefined}
            step="any"
            required
            {...describedBy(state, "threshold")}
          />
          <FieldError state={state} name="threshold" />
        </label>
        <label className="field">
          Minimum sample ({definition?.sampleLabel ?? "events"} in the window)
          <input
            type="number"
            name="minSample"
            value={minSample}
            onChange={set("minSample")}
            min={0}
            step={1}
            {...describedBy(state, "minSample")}
          />
          <span className="small">Below it the rule cannot fire.</span>
          <FieldError state={state} name="minSample" />
        </label>
        <label className="field">
          Muted until (optional)
          <input
            type="datetime-local"
            value={mutedLocal}
            onChange={(event) => setMutedLocal(event.target.value)}
            {...describedBy(state, "mutedUntil")}
          />
          <input type="hidden" name="mutedUntil" value={localInputToIso(mutedLocal) ?? ""} />
          <FieldError state={state} name="mutedUntil" />
        </label>

        <p
          className="rule-preview"
          id={`${formId}-preview`}
          role="status"
          data-testid="rule-preview"
        >
          <PreviewText preview={preview} pending={previewing} />
        </p>

        <fieldset className="rule-channels">
          <legend>Channels</legend>
          {channels.length === 0 ? (
            <p className="small muted">No channel: transitions are recorded on this page only.</p>
          ) : null}
          {channels.map((channel, index) => (
            <div className="channel-row" key={channel.key} data-testid="channel-row">
              {/* Read in order: every row sends its id (empty for a new channel) and its kind. */}
              <input type="hidden" name="channelId" value={channel.id ?? ""} />
              <input type="hidden" name="channelKind" value={channel.kind} />
              <label className="field">
                {channel.kind === "webhook" ? "Webhook URL" : "Slack incoming-webhook URL"}
                <input
                  type="url"
                  name="channelUrl"
                  value={channel.url}
                  onChange={(event) =>
                    setChannels((current) =>
                      current.map((item) =>
                        item.key === channel.key ? { ...item, url: event.target.value } : item,
                      ),
                    )
                  }
                  placeholder={
                    channel.kind === "webhook"
                      ? "https://example.com/routelens-alerts"
                      : "https://hooks.slack.com/services/…"
                  }
                  required
                  {...describedBy(state, `channels.${index}.url`)}
                />
                <FieldError state={state} name={`channels.${index}.url`} />
              </label>
              <button
                type="button"
                className="button button-quiet"
                onClick={() =>
                  setChannels((current) => current.filter((item) => item.key !== channel.key))
                }
              >
                Remove
              </button>
            </div>
          ))}
          <FieldError state={state} name="channels" />
          {channels.length < CHANNELS_MAX ? (
            <div className="button-row">
              <button
                type="button"
                className="button button-quiet"
                onClick={() => addChannel("webhook")}
              >
                Add webhook
              </button>
              <button
                type="button"
                className="button button-quiet"
                onClick={() => addChannel("slack")}
              >
                Add Slack
              </button>
            </div>
          ) : null}
        </fieldset>

        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? "Saving…" : editing ? "Save rule" : "Create rule"}
          </button>
        </div>
      </form>
      <FormError state={state} />
      {saved ? (
        <p role="status" data-testid="rule-saved">
          {state.done}
        </p>
      ) : null}
      {state.secrets && state.secrets.length > 0 ? (
        <NewSecretsBox
          key={state.secrets.map((item) => item.secret).join()}
          secrets={state.secrets}
        />
      ) : null}
    </div>
  );
}

function PreviewText({ preview, pending }: { preview: RulePreview | null; pending: boolean }) {
  if (preview === null) return <span className="muted">now: reading…</span>;
  if (!preview.ok) {
    return (
      <span className="muted">
        now: — <span className="small">({preview.message})</span>
      </span>
    );
  }
  return (
    <span className={pending ? "muted" : undefined}>
      now: <strong data-testid="rule-preview-value">{preview.text}</strong>
      {preview.wouldFire === true ? (
        <span className="badge badge-error">would fire</span>
      ) : preview.wouldFire === false ? (
        <span className="badge badge-ok">would not fire</span>
      ) : null}
      {preview.belowMinSample ? (
        <span className="small muted"> (below the minimum sample)</span>
      ) : null}
    </span>
  );
}
