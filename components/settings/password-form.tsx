"use client";

import { useActionState } from "react";
import { FieldError, FormError, FormField, NewPasswordField } from "@/components/auth/field-error";
import { changePasswordAction, setPasswordAction } from "@/lib/auth/account-actions";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";

/** Sets a first password, or changes the current one (which then has to be typed). */
export function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const [state, action, pending] = useActionState(
    hasPassword ? changePasswordAction : setPasswordAction,
    EMPTY_FORM_STATE,
  );
  return (
    <form
      action={action}
      className="form-stack"
      aria-label={hasPassword ? "Change password" : "Set a password"}
    >
      {hasPassword ? (
        <FormField
          state={state}
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
        />
      ) : null}
      <NewPasswordField state={state} />
      <FormError state={state} />
      <FieldError state={state} name="form" />
      {state.done ? (
        <p role="status" className="notice">
          {state.done}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending}>
        {hasPassword ? "Change password" : "Set password"}
      </button>
    </form>
  );
}
