"use client";

import { useActionState, useState } from "react";
import { describedBy, FieldError, FormError } from "@/components/auth/field-error";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { saveIngestLimits } from "@/lib/auth/key-actions";
import type { LimitsSectionData } from "@/lib/auth/limit-management";
import {
  INGEST_LIMIT_FIELD_INFO,
  INGEST_LIMIT_FIELDS,
  type IngestLimitField,
} from "@/lib/schemas/ingest-limits";

const whole = (n: number) => n.toLocaleString("en");

/**
 * An admin's form for one tenant's ingest limits: each of the six empty for the default
 * (shown as the placeholder) or a whole number. Choosing a tenant fills in its saved values.
 */
export function IngestLimitsForm({ section }: { section: LimitsSectionData }) {
  const [state, action, pending] = useActionState(saveIngestLimits, EMPTY_FORM_STATE);
  const [tenant, setTenant] = useState(
    state.values?.limitsTenant ?? section.tenants[0]?.tenantId ?? "",
  );
  const saved = section.tenants.find((row) => row.tenantId === tenant)?.overrides;
  const defaultOf = (field: IngestLimitField) => {
    const { scope, measure } = INGEST_LIMIT_FIELD_INFO[field];
    return section.defaults[scope][measure];
  };
  const shownValue = (field: IngestLimitField) => {
    if (state.values && state.values.limitsTenant === tenant) return state.values[field] ?? "";
    const value = saved?.[field];
    return value === null || value === undefined ? "" : String(value);
  };
  if (section.tenants.length === 0) return <p className="muted">No tenants yet.</p>;
  return (
    <div className="form-stack">
      <form action={action} className="key-form" data-testid="ingest-limits-form">
        <label className="field">
          Limits for
          <select
            name="limitsTenant"
            value={tenant}
            onChange={(event) => setTenant(event.target.value)}
            {...describedBy(state, "limitsTenant")}
          >
            {section.tenants.map((row) => (
              <option key={row.tenantId} value={row.tenantId}>
                {row.tenantId}
              </option>
            ))}
          </select>
          <FieldError state={state} name="limitsTenant" />
        </label>
        {INGEST_LIMIT_FIELDS.map((field) => (
          <label className="field" key={`${tenant}-${field}-${shownValue(field)}`}>
            {INGEST_LIMIT_FIELD_INFO[field].label}
            <input
              type="text"
              inputMode="numeric"
              name={field}
              defaultValue={shownValue(field)}
              placeholder={`default ${whole(defaultOf(field))}`}
              autoComplete="off"
              {...describedBy(state, field)}
            />
            <FieldError state={state} name={field} />
          </label>
        ))}
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Saving…" : "Save limits"}
        </button>
      </form>
      <FormError state={state} />
      {state.done ? <p role="status">{state.done}</p> : null}
    </div>
  );
}
