import type { FormState } from "@/lib/auth/form-state";

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
