"use client";

import { useActionState } from "react";
import { setUpInstance } from "@/lib/auth/actions";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { FormError, FormField, NewPasswordField } from "./field-error";

/** The first admin of a new instance, with the setup token from the server log. */
export function SetupForm() {
  const [state, action, pending] = useActionState(setUpInstance, EMPTY_FORM_STATE);
  return (
    <form action={action} className="form-stack">
      <FormField
        state={state}
        name="token"
        label="Setup token (printed in the server log)"
        autoComplete="off"
        required
      />
      <FormField state={state} name="name" label="Your name" autoComplete="name" required />
      <FormField
        state={state}
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        required
      />
      <NewPasswordField state={state} />
      <FormError state={state} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Creating the admin…" : "Create the admin and sign in"}
      </button>
    </form>
  );
}
