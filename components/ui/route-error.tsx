"use client";

import { useEffect } from "react";

/** The body of every route's error.tsx: what failed, and a retry. */
export function RouteError({
  error,
  retry,
  what,
}: {
  error: unknown;
  retry: () => void;
  what: string;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest =
    typeof error === "object" && error !== null && "digest" in error
      ? String((error as { digest?: unknown }).digest ?? "")
      : "";
  return (
    <div className="panel panel-error" role="alert">
      <h2>Could not load {what}</h2>
      <p>
        The server could not answer this request. If the database was restarted, retrying usually
        helps; otherwise check the server log
        {digest ? (
          <>
            {" "}
            for error <code>{digest}</code>
          </>
        ) : null}
        .
      </p>
      <button type="button" className="button" onClick={() => retry()}>
        Try again
      </button>
    </div>
  );
}
