"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import type { FormState } from "@/lib/auth/form-state";

type FormAction = (previous: FormState, form: FormData) => Promise<FormState>;

/** Deletes a rule, its history and its channels after a confirmation step. */
export function DeleteRuleButton({
  ruleId,
  ruleName,
  action,
}: {
  ruleId: string;
  ruleName: string;
  action: FormAction;
}) {
  const [confirming, setConfirming] = useState(false);
  const [state, dispatch, pending] = useActionState(action, {} as FormState);
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
      >
        Delete rule…
      </button>
    );
  }
  const problem = state.error ?? state.fieldErrors?.id;
  return (
    <form action={dispatch} className="revoke-confirm">
      <input type="hidden" name="id" value={ruleId} />
      <span className="small">
        Delete “{ruleName}” with its history and channels? Nothing more is evaluated or sent for it.
      </span>
      <span className="revoke-buttons">
        <button
          ref={confirmRef}
          type="submit"
          className="button button-quiet button-danger"
          disabled={pending}
        >
          {pending ? "Deleting…" : "Delete"}
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
