import type { InputHTMLAttributes, ReactNode } from "react";
import type { FormState } from "@/lib/auth/form-state";
import { PASSWORD_MIN } from "@/lib/schemas/accounts";

/** A field's problem from a server action's answer, tied to the input by its id. */
export function FieldError({ state, name }: { state: FormState; name: string }) {
  const message = state.fieldErrors?.[name];
  if (!message) return null;
  return (
    <span id={`${name}-error`} className="form-error" role="alert">
      {message}
    </span>
  );
}

/** The props that tie an input to its error message. */
export function describedBy(state: FormState, name: string) {
  const invalid = Boolean(state.fieldErrors?.[name]);
  return {
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? `${name}-error` : undefined,
  };
}

interface FormFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "defaultValue"> {
  /** The server action's last answer: the field's error, and what was typed before it. */
  state: FormState;
  name: string;
  label: ReactNode;
}

/**
 * A labelled input of a server-action form: typed values come back after a refusal (never
 * passwords), and the field's error is shown under it and tied to it.
 */
export function FormField({ state, name, label, type = "text", ...input }: FormFieldProps) {
  return (
    <label className="field">
      {label}
      <input
        type={type}
        name={name}
        defaultValue={type === "password" ? undefined : state.values?.[name]}
        {...input}
        {...describedBy(state, name)}
      />
      <FieldError state={state} name={name} />
    </label>
  );
}

/** A new password with the length rule in its label (setup, accepting an invitation). */
export function NewPasswordField({ state }: { state: FormState }) {
  return (
    <FormField
      state={state}
      name="password"
      label={`Password (at least ${PASSWORD_MIN} characters)`}
      type="password"
      autoComplete="new-password"
      minLength={PASSWORD_MIN}
      required
    />
  );
}

/** A server action's answer that is not tied to one field, as an alert. */
export function FormError({ state }: { state: FormState }) {
  if (!state.error) return null;
  return (
    <p className="form-error" role="alert">
      {state.error}
    </p>
  );
}
