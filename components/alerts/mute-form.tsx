"use client";

import { useActionState, useState, useTransition } from "react";
import { MUTE_PRESETS, muteUntilFor } from "@/lib/alerts/mute-presets";
import type { FormState } from "@/lib/auth/form-state";
import { localInputToIso } from "@/lib/dashboard/local-time-input";
import { LocalTime } from "../ui/local-time";

type FormAction = (previous: FormState, form: FormData) => Promise<FormState>;

/**
 * Mutes a rule until a time (a preset counted from the click, or a time typed in the
 * browser's own zone), or unmutes it. A muted rule is still evaluated and its transitions
 * recorded; they are not sent.
 */
export function MuteForm({
  ruleId,
  ruleName,
  mutedUntil,
  action,
}: {
  ruleId: string;
  ruleName: string;
  /** ISO, while muted. */
  mutedUntil: string | null;
  action: FormAction;
}) {
  const [state, dispatch, pending] = useActionState(action, {} as FormState);
  const [, startTransition] = useTransition();
  const [custom, setCustom] = useState("");
  const send = (until: string) => {
    const form = new FormData();
    form.set("id", ruleId);
    form.set("mutedUntil", until);
    startTransition(() => dispatch(form));
  };
  const customIso = localInputToIso(custom);
  const problem = state.error ?? state.fieldErrors?.mutedUntil ?? state.fieldErrors?.id;
  return (
    <div className="mute-form" data-testid="mute-form">
      <p className="small">
        {mutedUntil ? (
          <>
            Muted until <LocalTime iso={mutedUntil} />: transitions are recorded, not sent.
          </>
        ) : (
          "Muting keeps the rule evaluated and its history written, but sends nothing until the time given."
        )}
      </p>
      <fieldset className="button-row plain-fieldset">
        <legend className="visually-hidden">Mute {ruleName} for</legend>
        {MUTE_PRESETS.map((preset) => (
          <button
            key={preset.key}
            type="button"
            className="button button-quiet"
            disabled={pending}
            onClick={() => send(muteUntilFor(preset.key, new Date()).toISOString())}
          >
            Mute {preset.label}
          </button>
        ))}
        {mutedUntil ? (
          <button
            type="button"
            className="button button-quiet"
            disabled={pending}
            onClick={() => send("")}
          >
            Unmute
          </button>
        ) : null}
      </fieldset>
      <div className="button-row">
        <label className="field">
          Mute until
          <input
            type="datetime-local"
            value={custom}
            onChange={(event) => setCustom(event.target.value)}
            aria-invalid={Boolean(state.fieldErrors?.mutedUntil) || undefined}
          />
        </label>
        <button
          type="button"
          className="button button-quiet"
          disabled={pending || customIso === null}
          onClick={() => customIso && send(customIso)}
        >
          Mute until then
        </button>
      </div>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {state.done ? <p role="status">{state.done}</p> : null}
    </div>
  );
}
