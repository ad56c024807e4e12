"use client";

import type { NewChannelSecret } from "@/lib/alerts/rule-form-values";
import { CopyButton } from "../ui/copy-button";

/**
 * Signing secrets of webhooks just created: shown this once, with a copy button and how a
 * receiver checks the signature (`lib/alerts/signature.ts`).
 */
export function NewSecretsBox({ secrets }: { secrets: readonly NewChannelSecret[] }) {
  return (
    <div className="secret-once" role="status" data-testid="new-webhook-secret">
      <p>
        <strong>
          {secrets.length === 1 ? "The webhook's signing secret" : "The webhooks' signing secrets"}
        </strong>
        : copy {secrets.length === 1 ? "it" : "them"} now. A secret is shown this once and cannot be
        seen again; to replace it, remove the webhook and add it again.
      </p>
      {secrets.map((item) => (
        <div key={item.secret}>
          <p className="small mono break">{item.url}</p>
          <div className="secret-row">
            <code className="mono secret-value" data-testid="webhook-secret-value">
              {item.secret}
            </code>
            <CopyButton text={item.secret} label="Copy secret" />
          </div>
        </div>
      ))}
      <p className="small">
        To verify a delivery, compute the HMAC-SHA256 of{" "}
        <code>&lt;X-Routelens-Timestamp&gt;.&lt;raw body&gt;</code> keyed with this secret, and
        compare its hex digest, prefixed <code>sha256=</code>, with the{" "}
        <code>X-Routelens-Signature</code> header in constant time; refuse timestamps more than 5
        minutes old.
      </p>
    </div>
  );
}
