"use client";

import { useState } from "react";
import { buildKeyCurlLine } from "@/lib/dashboard/key-example";
import { CopyButton } from "../ui/copy-button";
import { useIsClient } from "../ui/use-is-client";

/** A key just created: shown this once, with a copy button and a curl that sends a batch with it. */
export function NewKeyBox({ secret, message }: { secret: string; message: string | undefined }) {
  const isClient = useIsClient();
  // The example's timestamp is the moment the key appeared, so it stays put while copying.
  const [now] = useState(() => new Date());
  const origin = isClient ? window.location.origin : "http://localhost:3000";
  const curl = buildKeyCurlLine(origin, secret, now);
  return (
    <div className="secret-once new-key" role="status" data-testid="new-key">
      <p>
        <strong>{message ?? "Key created."}</strong> Copy it now: it is shown this once and cannot
        be seen again. If it is lost, revoke it and create another.
      </p>
      <div className="secret-row">
        <code className="mono secret-value" data-testid="new-key-value">
          {secret}
        </code>
        <CopyButton text={secret} label="Copy key" />
      </div>
      <p className="small">Send a first batch with it:</p>
      <div className="code-with-copy">
        <pre className="code-block">
          <code data-testid="new-key-curl">{curl}</code>
        </pre>
        <CopyButton text={curl} />
      </div>
    </div>
  );
}
