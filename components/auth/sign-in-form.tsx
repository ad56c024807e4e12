"use client";

import { type FormEvent, useState } from "react";
import { signInErrorPath } from "@/lib/auth/paths";

interface Props {
  /** Where to go once signed in (a same-site path). */
  next: string;
  /** The single sign-on button's label, when single sign-on is configured. */
  ssoName: string | null;
  /** A message to show first (e.g. an expired sign-in link). */
  initialError: string | null;
}

type Status = { kind: "idle" } | { kind: "busy" } | { kind: "error"; message: string };

/** The auth API's answer as a sentence for the person signing in. */
async function describeFailure(response: Response): Promise<string> {
  if (response.status === 429) {
    const wait = response.headers.get("Retry-After");
    return `Too many sign-in attempts. Try again in ${wait ?? "a few"} seconds.`;
  }
  if (response.status === 401) return "Wrong email or password.";
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  return body?.message ?? `Sign-in failed (HTTP ${response.status}). Try again.`;
}

/**
 * Email and password against the auth API (`/api/auth/sign-in/email`), and single sign-on
 * when it is configured. Errors never say whether the email has an account.
 */
export function SignInForm({ next, ssoName, initialError }: Props) {
  const [status, setStatus] = useState<Status>(
    initialError ? { kind: "error", message: initialError } : { kind: "idle" },
  );

  // onSubmit rather than a form action: a refused attempt keeps what was typed.
  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setStatus({ kind: "busy" });
    const response = await fetch("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        rememberMe: true,
      }),
    }).catch(() => null);
    if (!response) {
      setStatus({
        kind: "error",
        message: "Routelens did not answer. Check the server and try again.",
      });
      return;
    }
    if (!response.ok) {
      setStatus({ kind: "error", message: await describeFailure(response) });
      return;
    }
    window.location.assign(next);
  }

  async function signInWithSso() {
    setStatus({ kind: "busy" });
    // The provider sends the browser back to /api/auth/callback/sso, which starts the session
    // and goes on to `next`, or back here with `?error=<code>`.
    const response = await fetch("/api/auth/sign-in/social", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        provider: "sso",
        callbackURL: next,
        errorCallbackURL: signInErrorPath(next),
        disableRedirect: true,
      }),
    }).catch(() => null);
    const body = response?.ok ? ((await response.json()) as { url?: string }) : null;
    if (!body?.url) {
      setStatus({
        kind: "error",
        message: response ? await describeFailure(response) : "Routelens did not answer.",
      });
      return;
    }
    window.location.assign(body.url);
  }

  const busy = status.kind === "busy";
  return (
    <div className="form-stack">
      <form onSubmit={signIn} className="form-stack" aria-describedby="sign-in-error">
        <label className="field">
          Email
          <input type="email" name="email" autoComplete="username" required />
        </label>
        <label className="field">
          Password
          <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p id="sign-in-error" className="form-error" role="alert">
        {status.kind === "error" ? status.message : null}
      </p>
      {ssoName ? (
        <>
          <p className="form-divider">or</p>
          <button type="button" className="button" onClick={signInWithSso} disabled={busy}>
            Sign in with {ssoName}
          </button>
        </>
      ) : null}
    </div>
  );
}
