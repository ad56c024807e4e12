"use client";

import { type ReactNode, useActionState, useEffect, useRef, useState } from "react";
import { EMPTY_FORM_STATE, type FormState } from "@/lib/auth/form-state";

type FormAction = (previous: FormState, form: FormData) => Promise<FormState>;

/**
 * A destructive action behind a confirmation step: the first button opens a sentence saying
 * what will happen, with the confirming button (focused) and Cancel; the action's refusal or
 * answer is shown beside them.
 */
export function ConfirmedAction({
  action,
  fields,
  openLabel,
  openAriaLabel,
  warning,
  confirmLabel,
  pendingLabel,
}: {
  action: FormAction;
  /** Hidden form fields sent with the action; a refusal of the first one is shown. */
  fields: Record<string, string>;
  openLabel: string;
  openAriaLabel?: string;
  warning: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const [state, dispatch, pending] = useActionState(action, EMPTY_FORM_STATE);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  if (!confirming) {
    return (
      <button
        type="button"
        className="button button-quiet button-danger"
        onClick={() => setConfirming(true)}
        aria-label={openAriaLabel}
      >
        {openLabel}
      </button>
    );
  }
  const names = Object.keys(fields);
  const problem =
    state.error ?? names.map((name) => state.fieldErrors?.[name]).find((error) => error);
  return (
    <form action={dispatch} className="revoke-confirm">
      {names.map((name) => (
        <input key={name} type="hidden" name={name} value={fields[name]} />
      ))}
      <span className="small">{warning}</span>
      <span className="revoke-buttons">
        <button
          ref={confirmRef}
          type="submit"
          className="button button-quiet button-danger"
          disabled={pending}
        >
          {pending ? pendingLabel : confirmLabel}
        </button>
        <button
          type="button"
          className="button button-quiet"
          onClick={() => setConfirming(false)}
          disabled={pending}
        >
          Cancel
        </button>
      </span>
      {problem ? (
        <span className="form-error" role="alert">
          {problem}
        </span>
      ) : null}
      {state.done ? <span role="status">{state.done}</span> : null}
    </form>
  );
}
