"use client";

import { ConfirmedAction } from "@/components/ui/confirmed-action";
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
  return (
    <ConfirmedAction
      action={revokeKey}
      fields={{ keyId }}
      openLabel="Revoke…"
      openAriaLabel={`Revoke key ${prefix}… of ${tenantId}`}
      warning={`Agents sending ${prefix}… get 401 from the next request.`}
      confirmLabel={`Revoke ${prefix}…`}
      pendingLabel="Revoking…"
    />
  );
}
