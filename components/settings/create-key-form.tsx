"use client";

import { useActionState } from "react";
import { describedBy, FieldError, FormError } from "@/components/auth/field-error";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { createKey } from "@/lib/auth/key-actions";
import { API_KEY_SCOPE_TEXT, API_KEY_SCOPES } from "@/lib/schemas/accounts";
import { NewKeyBox } from "./new-key-box";

interface Props {
  /** Tenants the viewer may create keys for. */
  tenants: string[];
  /** Admins may type a tenant id that does not exist yet. */
  canCreateTenant: boolean;
}

const TENANT_LIST_ID = "key-tenant-choices";
const TENANT_HINT_ID = "key-tenant-hint";

/**
 * Creates a key for one of the viewer's tenants: an ingest key, or a configs key for a CI
 * pipeline that changes the tenant's routing configs. The key is shown once below.
 */
export function CreateKeyForm({ tenants, canCreateTenant }: Props) {
  const [state, action, pending] = useActionState(createKey, EMPTY_FORM_STATE);
  const tenantProblem = describedBy(state, "tenant");
  return (
    <div className="form-stack">
      <form action={action} className="key-form">
        {canCreateTenant ? (
          <div className="field">
            <label htmlFor="key-tenant">Tenant</label>
            <input
              id="key-tenant"
              type="text"
              name="tenant"
              defaultValue={state.values?.tenant}
              list={TENANT_LIST_ID}
              autoComplete="off"
              maxLength={100}
              required
              aria-invalid={tenantProblem["aria-invalid"]}
              aria-describedby={[TENANT_HINT_ID, tenantProblem["aria-describedby"]]
                .filter(Boolean)
                .join(" ")}
            />
            <datalist id={TENANT_LIST_ID}>
              {tenants.map((tenant) => (
                <option key={tenant} value={tenant} />
              ))}
            </datalist>
            <span id={TENANT_HINT_ID} className="small">
              Pick a tenant or type a new id (letters, digits, '.', '_', '-'): a new id creates the
              tenant.
            </span>
            <FieldError state={state} name="tenant" />
          </div>
        ) : (
          <label className="field">
            Tenant
            <select
              name="tenant"
              required
              defaultValue={state.values?.tenant ?? tenants[0]}
              {...tenantProblem}
            >
              {tenants.map((tenant) => (
                <option key={tenant} value={tenant}>
                  {tenant}
                </option>
              ))}
            </select>
            <FieldError state={state} name="tenant" />
          </label>
        )}
        <label className="field">
          Label (optional: where the key is used)
          <input
            type="text"
            name="label"
            defaultValue={state.values?.label}
            autoComplete="off"
            maxLength={200}
            placeholder="e.g. support-agent production"
            {...describedBy(state, "label")}
          />
          <FieldError state={state} name="label" />
        </label>
        <div className="field">
          <label htmlFor="key-scope">Use</label>
          <select
            id="key-scope"
            name="scope"
            defaultValue={state.values?.scope ?? "ingest"}
            {...describedBy(state, "scope")}
          >
            {API_KEY_SCOPES.map((scope) => (
              <option key={scope} value={scope}>
                {scope}: {API_KEY_SCOPE_TEXT[scope]}
              </option>
            ))}
          </select>
          <FieldError state={state} name="scope" />
        </div>
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>
      <FormError state={state} />
      {state.secret ? (
        <NewKeyBox key={state.secret} secret={state.secret} message={state.done} />
      ) : null}
    </div>
  );
}
