"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { EMPTY_FORM_STATE } from "@/lib/auth/form-state";
import { revokeKey } from "@/lib/auth/key-actions";

/** Revokes one active key after a confirmation step; agents using it are refused at once. */
export function RevokeKeyButton({
  keyId,
  prefix,
  tenantId,
}: {
  keyId: string;
  prefix: string;
  tenantId: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const [state, action, pending] = useActionState(revokeKey, EMPTY_FORM_STATE);
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
        aria-label={`Revoke key ${prefix}… of ${tenantId}`}
      >
        Revoke…
      </button>
    );
  }
  const problem = state.error ?? state.fieldErrors?.keyId;
  return (
    <form action={action} className="revoke-confirm">
      <input type="hidden" name="keyId" value={keyId} />
      <span className="small">Agents sending {prefix}… get 401 from the next request.</span>
      <span className="revoke-buttons">
        <button
          ref={confirmRef}
          type="submit"
          className="button button-quiet button-danger"
          disabled={pending}
        >
          {pending ? "Revoking…" : `Revoke ${prefix}…`}
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
