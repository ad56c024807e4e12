import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getViewer, hasAnyUser, safeNextPath } from "@/lib/auth/access";
import { oidcSettings } from "@/lib/auth/server";
import { signInSearchSchema } from "@/lib/schemas/accounts";
import { parseSearchParams, type RawSearchParams } from "@/lib/schemas/dashboard";

export const metadata: Metadata = { title: "Sign in" };

/** Why a one-time link or single sign-on sent the user back here, in words. */
const LINK_ERRORS: Record<string, string> = {
  INVALID_TOKEN:
    "This sign-in link has expired or was already used. Ask an admin for a new one, or run `npm run users -- link <email>` on the server.",
  new_user_signup_disabled: "That sign-in link names no user of this Routelens.",
  // Single sign-on (README, "Single sign-on"): codes the callback sends back.
  ACCOUNT_DEACTIVATED:
    "This account is deactivated, so single sign-on cannot open it. Ask an admin of this Routelens.",
  access_denied: "Single sign-on was cancelled or refused by the provider.",
  account_not_linked:
    "A user with this email already exists but its email is not confirmed, so single sign-on cannot sign in as it. Ask an admin of this Routelens.",
  email_not_found:
    "The single sign-on provider did not share an email address; Routelens needs one.",
  state_mismatch:
    "The single sign-on attempt expired or was started in another browser. Try again.",
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<RawSearchParams>;
}) {
  const search = parseSearchParams(signInSearchSchema, await searchParams);
  const next = safeNextPath(search.next);
  if (await getViewer()) redirect(next);
  if (!(await hasAnyUser())) redirect("/setup");
  const sso = oidcSettings();
  const initialError = search.error
    ? (LINK_ERRORS[search.error] ??
      `Sign-in did not complete (${search.error}). Try again, or ask an admin of this Routelens.`)
    : null;
  return (
    <div className="panel auth-card">
      <h1>Sign in to Routelens</h1>
      <SignInForm next={next} ssoName={sso?.name ?? null} initialError={initialError} />
    </div>
  );
}
