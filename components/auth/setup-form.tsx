"use client";

import { useActionState } from "react";
import { setUpInstance } from "@/lib/auth/actions";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { PASSWORD_MIN } from "@/lib/schemas/accounts";
import { describedBy, FieldError } from "./field-error";

/** The first admin of a new instance, with the setup token from the server log. */
export function SetupForm() {
  const [state, action, pending] = useActionState(setUpInstance, EMPTY_FORM_STATE);
  return (
    <form action={action} className="form-stack">
      <label className="field">
        Setup token (printed in the server log)
        <input
          type="text"
          name="token"
          defaultValue={state.values?.token}
          autoComplete="off"
          required
          {...describedBy(state, "token")}
        />
        <FieldError state={state} name="token" />
      </label>
      <label className="field">
        Your name
        <input
          type="text"
          name="name"
          defaultValue={state.values?.name}
          autoComplete="name"
          required
          {...describedBy(state, "name")}
        />
        <FieldError state={state} name="name" />
      </label>
      <label className="field">
        Email
        <input
          type="email"
          name="email"
          defaultValue={state.values?.email}
          autoComplete="username"
          required
          {...describedBy(state, "email")}
        />
        <FieldError state={state} name="email" />
      </label>
      <label className="field">
        Password (at least {PASSWORD_MIN} characters)
        <input
          type="password"
          name="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN}
          required
          {...describedBy(state, "password")}
        />
        <FieldError state={state} name="password" />
      </label>
      {state.error ? (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Creating the admin…" : "Create the admin and sign in"}
      </button>
    </form>
  );
}
