"use client";

import { useActionState } from "react";
import { describedBy, FieldError, FormError, FormField } from "@/components/auth/field-error";
import { CopyButton } from "@/components/ui/copy-button";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { inviteUserAction } from "@/lib/auth/user-actions";
import { INVITE_ROLE_FIELD_PREFIX, TENANT_ROLE_TEXT } from "@/lib/schemas/accounts";

/**
 * Invite by one-time link: an email, the admin flag, a role per tenant. The link is shown
 * once, here, right after it is made.
 */
export function InviteForm({ tenants }: { tenants: string[] }) {
  const [state, action, pending] = useActionState(inviteUserAction, EMPTY_FORM_STATE);
  return (
    <div className="form-stack">
      {state.secret ? (
        <div className="secret-once" data-testid="invitation-link">
          <strong>{state.done}</strong>
          <code className="mono secret-value">{state.secret}</code>
          <div>
            <CopyButton text={state.secret} label="Copy link" />
          </div>
        </div>
      ) : null}
      <form action={action} className="form-stack invite-form" aria-label="Invite a user">
        <FormField
          state={state}
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          required
        />
        <label className="field field-check">
          <input type="checkbox" name="isAdmin" defaultChecked={state.values?.isAdmin === "on"} />
          Instance admin (sees and manages every tenant, user and key)
        </label>
        <fieldset className="role-fieldset" {...describedBy(state, "roles")}>
          <legend>Tenant roles</legend>
          {tenants.length === 0 ? (
            <p className="muted">No tenants yet: they appear when their first events arrive.</p>
          ) : (
            <div className="role-grid">
              {tenants.map((tenant) => (
                <label key={tenant} className="field">
                  <span className="mono">{tenant}</span>
                  <select
                    name={`${INVITE_ROLE_FIELD_PREFIX}${tenant}`}
                    defaultValue={state.values?.[`${INVITE_ROLE_FIELD_PREFIX}${tenant}`] ?? "none"}
                  >
                    <option value="none">none</option>
                    <option value="viewer">viewer</option>
                    <option value="maintainer">maintainer</option>
                  </select>
                </label>
              ))}
            </div>
          )}
          <p className="muted small">
            viewer {TENANT_ROLE_TEXT.viewer}; maintainer {TENANT_ROLE_TEXT.maintainer}.
          </p>
          <FieldError state={state} name="roles" />
        </fieldset>
        <FormError state={state} />
        <div>
          <button type="submit" className="button button-primary" disabled={pending}>
            {pending ? "Creating the link…" : "Create invitation link"}
          </button>
        </div>
      </form>
    </div>
  );
}
