"use client";

/**
 * The new-backtest form: tenant, roles, window (at most 30 days), the candidate config (one of
 * the tenant's stored configs, or pasted JSON), an optional baseline (default: what was
 * recorded) and the verdict's threshold. A refusal names the field and the rule it broke,
 * beside the field; a started backtest opens its own page.
 */
import { useActionState, useEffect, useState } from "react";
import { describedBy, FieldError, FormError } from "@/components/auth/field-error";
import { startBacktest } from "@/lib/auth/backtest-actions";
import type { BacktestFormState } from "@/lib/auth/backtest-management";
import {
  type BacktestFormValues,
  type StoredConfigChoice,
  windowOf,
} from "@/lib/backtest/form-values";
import { isoToLocalInput, localInputToIso } from "@/lib/dashboard/local-time-input";
import { BACKTEST_WINDOWS, type BacktestWindow } from "@/lib/schemas/backtest-pages";
import { LocalTime } from "../ui/local-time";
import styles from "./backtests.module.css";

const WINDOW_LABELS: Record<BacktestWindow, string> = {
  "1h": "the last hour",
  "24h": "the last 24 hours",
  "7d": "the last 7 days",
  "30d": "the last 30 days",
  custom: "from … to …",
};

type Source = "recorded" | "stored" | "pasted";

function ConfigChoice({
  name,
  label,
  state,
  source,
  setSource,
  sources,
  configs,
  version,
  json,
}: {
  name: "candidate" | "baseline";
  label: string;
  state: BacktestFormState;
  source: Source;
  setSource: (source: Source) => void;
  sources: readonly Source[];
  configs: readonly StoredConfigChoice[];
  version: string | undefined;
  json: string | undefined;
}) {
  const sourceLabels: Record<Source, string> = {
    recorded: "what was recorded",
    stored: `a stored config of this tenant${configs.length === 0 ? " (none yet)" : ""}`,
    pasted: "pasted JSON",
  };
  return (
    <fieldset className="role-fieldset" data-testid={`${name}-config`}>
      <legend>{label}</legend>
      <div className="button-row">
        {sources.map((value) => (
          <label key={value} className="field field-check">
            <input
              type="radio"
              name={`${name}Source`}
              value={value}
              checked={source === value}
              onChange={() => setSource(value)}
              disabled={value === "stored" && configs.length === 0}
            />
            {sourceLabels[value]}
          </label>
        ))}
      </div>
      <FieldError state={state} name={`${name}Source`} />
      {source === "stored" ? (
        <label className="field">
          Stored config
          <select
            name={`${name}Version`}
            defaultValue={version ?? configs[0]?.version}
            {...describedBy(state, `${name}Version`)}
          >
            {configs.map((config) => (
              <option key={config.version} value={config.version}>
                {config.label}
              </option>
            ))}
          </select>
          <FieldError state={state} name={`${name}Version`} />
        </label>
      ) : null}
      {source === "pasted" ? (
        <label className="field">
          Routing config (JSON)
          <textarea
            name={`${name}Json`}
            rows={12}
            spellCheck={false}
            className={`mono ${styles.configJson}`}
            defaultValue={json}
            placeholder='{"roleTools": {"action": ["search_docs", "create_ticket"]}, "alwaysInclude": ["hydrate_context"]}'
            {...describedBy(state, `${name}Json`)}
          />
          <FieldError state={state} name={`${name}Json`} />
        </label>
      ) : null}
    </fieldset>
  );
}

export function BacktestForm({
  tenants,
  rolesByTenant,
  configsByTenant,
  initial,
  now,
}: {
  /** The tenants the viewer maintains (every tenant for an admin). */
  tenants: readonly string[];
  /** Roles seen in each tenant's traffic. */
  rolesByTenant: Readonly<Record<string, readonly string[]>>;
  /** Each tenant's stored configs, newest first. */
  configsByTenant: Readonly<Record<string, readonly StoredConfigChoice[]>>;
  initial: BacktestFormValues;
  /** When the page was rendered (ISO), for the preview of a window ending now. */
  now: string;
}) {
  const [state, action, pending] = useActionState(startBacktest, {} as BacktestFormState);
  const typed = state.values;
  const [tenant, setTenant] = useState(typed?.tenant ?? initial.tenant ?? tenants[0] ?? "");
  const [span, setSpan] = useState<BacktestWindow>(
    (typed?.window as BacktestWindow | undefined) ?? initial.window,
  );
  const [fromLocal, setFromLocal] = useState("");
  const [toLocal, setToLocal] = useState("");
  // A copied window is shown in the browser's own time once the form runs there.
  useEffect(() => {
    setFromLocal(isoToLocalInput(initial.fromIso));
    setToLocal(isoToLocalInput(initial.toIso));
  }, [initial.fromIso, initial.toIso]);
  const [candidateSource, setCandidateSource] = useState<Source>(initial.candidateSource);
  const [baselineSource, setBaselineSource] = useState<Source>(initial.baselineSource);
  const preset =
    span === "custom" ? { from: undefined } : windowOf({ window: span }, new Date(now));
  const roles = rolesByTenant[tenant] ?? [];
  const configs = configsByTenant[tenant] ?? [];
  const chosenRoles = new Set(initial.tenant === tenant ? initial.roles : []);
  // A tenant without stored configs can only be given a pasted one.
  const usable = (source: Source): Source =>
    source === "stored" && configs.length === 0 ? "pasted" : source;

  return (
    <form action={action} className="form-stack" data-testid="backtest-form">
      <div className="rule-fields">
        <label className="field">
          Tenant
          <select
            name="tenant"
            value={tenant}
            onChange={(event) => setTenant(event.target.value)}
            {...describedBy(state, "tenant")}
          >
            {tenants.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
          <FieldError state={state} name="tenant" />
        </label>
        <label className="field">
          Window
          <select
            name="window"
            value={span}
            onChange={(event) => setSpan(event.target.value as BacktestWindow)}
            {...describedBy(state, "window")}
          >
            {BACKTEST_WINDOWS.map((value) => (
              <option key={value} value={value}>
                {WINDOW_LABELS[value]}
              </option>
            ))}
          </select>
          <span className="small">
            {preset.from ? (
              <>
                From <LocalTime iso={preset.from} style="short" /> to now;{" "}
              </>
            ) : null}
            at most 30 days of recorded decisions.
          </span>
          <FieldError state={state} name="window" />
        </label>
        <label className="field">
          Verdict threshold (% harmful drops)
          <input
            type="number"
            name="thresholdPercent"
            min={0.01}
            max={50}
            step="any"
            defaultValue={typed?.thresholdPercent ?? initial.thresholdPercent}
            {...describedBy(state, "thresholdPercent")}
          />
          <FieldError state={state} name="thresholdPercent" />
        </label>
        {span === "custom" ? (
          <>
            <label className="field">
              From (your local time)
              <input
                type="datetime-local"
                value={fromLocal}
                onChange={(event) => setFromLocal(event.target.value)}
                {...describedBy(state, "from")}
              />
              <input type="hidden" name="from" value={localInputToIso(fromLocal) ?? ""} />
              <FieldError state={state} name="from" />
            </label>
            <label className="field">
              To (your local time)
              <input
                type="datetime-local"
                value={toLocal}
                onChange={(event) => setToLocal(event.target.value)}
                {...describedBy(state, "to")}
              />
              <input type="hidden" name="to" value={localInputToIso(toLocal) ?? ""} />
              <FieldError state={state} name="to" />
            </label>
          </>
        ) : null}
      </div>

      <fieldset className="role-fieldset" data-testid="backtest-roles">
        <legend>Roles (none ticked: every role)</legend>
        {roles.length === 0 ? (
          <p className="small muted">No recorded traffic for this tenant yet.</p>
        ) : (
          <div className="role-grid" key={tenant}>
            {roles.map((role) => (
              <label key={role} className="field field-check">
                <input
                  type="checkbox"
                  name="roles"
                  value={role}
                  defaultChecked={chosenRoles.has(role)}
                />
                {role}
              </label>
            ))}
          </div>
        )}
        <FieldError state={state} name="roles" />
      </fieldset>

      <ConfigChoice
        key={`candidate-${tenant}`}
        name="candidate"
        label="Candidate config"
        state={state}
        source={usable(candidateSource)}
        setSource={setCandidateSource}
        sources={["stored", "pasted"]}
        configs={configs}
        version={typed?.candidateVersion ?? initial.candidateVersion}
        json={typed?.candidateJson ?? initial.candidateJson}
      />
      <ConfigChoice
        key={`baseline-${tenant}`}
        name="baseline"
        label="Compare with (baseline)"
        state={state}
        source={baselineSource === "stored" && configs.length === 0 ? "recorded" : baselineSource}
        setSource={setBaselineSource}
        sources={["recorded", "stored", "pasted"]}
        configs={configs}
        version={typed?.baselineVersion ?? initial.baselineVersion}
        json={typed?.baselineJson ?? initial.baselineJson}
      />

      <FormError state={state} />
      <FieldError state={state} name="form" />
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Starting…" : "Start backtest"}
        </button>
      </div>
    </form>
  );
}
