"use client";

import { useActionState } from "react";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { acceptInvitationAction } from "@/lib/auth/invitation-actions";
import { FormField, NewPasswordField } from "./field-error";

/** The invited person's name and password; on success they are signed in and sent to `/`. */
export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState(acceptInvitationAction, EMPTY_FORM_STATE);
  return (
    <form action={action} className="form-stack">
      <input type="hidden" name="token" value={token} />
      {/* Lets password managers store the new password under the right email. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <FormField state={state} name="name" label="Your name" autoComplete="name" required />
      <NewPasswordField state={state} />
      {state.error || state.fieldErrors?.token ? (
        <p className="form-error" role="alert">
          {state.error ?? `The invitation token ${state.fieldErrors?.token}.`}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Creating your account…" : "Create my account and sign in"}
      </button>
    </form>
  );
}
