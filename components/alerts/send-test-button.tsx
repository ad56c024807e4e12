"use client";

import { useActionState } from "react";
import type { FormState } from "@/lib/auth/form-state";

type FormAction = (previous: FormState, form: FormData) => Promise<FormState>;

/** Sends a test message to one channel and shows what the receiver answered. */
export function SendTestButton({
  ruleId,
  channelId,
  label,
  action,
}: {
  ruleId: string;
  channelId: string;
  label: string;
  action: FormAction;
}) {
  const [state, dispatch, pending] = useActionState(action, {} as FormState);
  const problem = state.error ?? state.fieldErrors?.channelId ?? state.fieldErrors?.id;
  return (
    <form action={dispatch} className="inline-form send-test">
      <input type="hidden" name="id" value={ruleId} />
      <input type="hidden" name="channelId" value={channelId} />
      <button
        type="submit"
        className="button button-quiet"
        disabled={pending}
        aria-label={`Send a test to ${label}`}
      >
        {pending ? "Sending…" : "Send test"}
      </button>
      <span aria-live="polite" data-testid="send-test-result">
        {problem ? (
          <span className="form-error" role="alert">
            {problem}
          </span>
        ) : state.done ? (
          <span className="small">{state.done}</span>
        ) : null}
      </span>
    </form>
  );
}
