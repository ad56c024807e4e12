"use client";

import { createContext, useActionState, useContext } from "react";
import { EMPTY_FORM_STATE, type FormState } from "@/lib/auth/form-state";
import { setAdminAction, setTenantRoleAction, setUserActiveAction } from "@/lib/auth/user-actions";
import type { TenantRoleEntry } from "@/lib/schemas/accounts";

/** A form's answer under it: done, or what went wrong. */
function FormAnswer({ state }: { state: FormState }) {
  const problems = [
    state.error,
    // A schema's rule ("must be …") gets its field's name; a sentence already names it.
    ...Object.entries(state.fieldErrors ?? {}).map(([field, message]) =>
      /^[A-Z]/.test(message) ? message : `${field} ${message}`,
    ),
  ]
    .filter(Boolean)
    .join(" ");
  if (problems) {
    return (
      <span className="form-error" role="alert">
        {problems}
      </span>
    );
  }
  return state.done ? (
    <span className="muted" role="status">
      {state.done}
    </span>
  ) : null;
}

/**
 * The tenants a role can be given in. A context rather than a column's closure, so the
 * table's columns stay the same functions across refreshes and the forms keep their answers.
 */
export const TenantChoicesContext = createContext<readonly string[]>([]);

/** One tenant and the role to give there (or none, to take it away). */
export function TenantRoleForm({
  userId,
  email,
  roles,
}: {
  userId: string;
  email: string;
  roles: TenantRoleEntry[];
}) {
  const tenants = useContext(TenantChoicesContext);
  const [state, action, pending] = useActionState(setTenantRoleAction, EMPTY_FORM_STATE);
  if (tenants.length === 0) return <span className="muted">No tenants yet.</span>;
  const current = new Map(roles.map((entry) => [entry.tenant, entry.role]));
  return (
    <form action={action} className="inline-form" aria-label={`Tenant role of ${email}`}>
      <input type="hidden" name="userId" value={userId} />
      <select name="tenant" aria-label={`Tenant for ${email}`} defaultValue={tenants[0]}>
        {tenants.map((tenant) => (
          <option key={tenant} value={tenant}>
            {tenant}
            {current.has(tenant) ? ` (${current.get(tenant)})` : ""}
          </option>
        ))}
      </select>
      <select name="role" aria-label={`Role for ${email}`} defaultValue="viewer">
        <option value="viewer">viewer</option>
        <option value="maintainer">maintainer</option>
        <option value="none">none</option>
      </select>
      <button type="submit" className="button button-quiet" disabled={pending}>
        Set role
      </button>
      <FormAnswer state={state} />
    </form>
  );
}

/** Make or unmake an admin; refused (with the reason) for the viewer's own right. */
export function AdminToggle({
  userId,
  email,
  isAdmin,
}: {
  userId: string;
  email: string;
  isAdmin: boolean;
}) {
  const [state, action, pending] = useActionState(setAdminAction, EMPTY_FORM_STATE);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="isAdmin" value={isAdmin ? "false" : "true"} />
      <button
        type="submit"
        className="button button-quiet"
        disabled={pending}
        aria-label={`${isAdmin ? "Remove admin right of" : "Make admin:"} ${email}`}
      >
        {isAdmin ? "Remove admin" : "Make admin"}
      </button>
      <FormAnswer state={state} />
    </form>
  );
}

/** Deactivate (sessions end at once) or reactivate a user. */
export function ActivationToggle({
  userId,
  email,
  active,
}: {
  userId: string;
  email: string;
  active: boolean;
}) {
  const [state, action, pending] = useActionState(setUserActiveAction, EMPTY_FORM_STATE);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="active" value={active ? "false" : "true"} />
      <button
        type="submit"
        className={active ? "button button-quiet button-danger" : "button button-quiet"}
        disabled={pending}
        aria-label={`${active ? "Deactivate" : "Reactivate"} ${email}`}
      >
        {active ? "Deactivate" : "Reactivate"}
      </button>
      <FormAnswer state={state} />
    </form>
  );
}

export { FormAnswer };
