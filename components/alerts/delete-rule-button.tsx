"use client";

import { ConfirmedAction } from "@/components/ui/confirmed-action";
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
  return (
    <ConfirmedAction
      action={action}
      fields={{ id: ruleId }}
      openLabel="Delete rule…"
      warning={`Delete “${ruleName}” with its history and channels? Nothing more is evaluated or sent for it.`}
      confirmLabel="Delete"
      pendingLabel="Deleting…"
    />
  );
}
