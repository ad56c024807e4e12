import type { Metadata } from "next";
import { PasswordForm } from "@/components/settings/password-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireViewer } from "@/lib/auth/access";
import { getPrisma } from "@/lib/db/client";

export const metadata: Metadata = { title: "Your account" };

/** The signed-in user's own account: how they sign in, and their password. */
export default async function AccountPage() {
  const viewer = await requireViewer();
  const accounts = await getPrisma().account.findMany({
    where: { userId: viewer.userId },
    select: { providerId: true, password: true },
  });
  const hasPassword = accounts.some((account) => account.password);
  const sso = accounts.some((account) => account.providerId !== "credential");
  const roles = [...viewer.roles].sort(([a], [b]) => (a < b ? -1 : 1));
  return (
    <>
      <PageHeader
        title="Your account"
        subtitle={
          <>
            {viewer.email}
            {viewer.isAdmin ? " · instance admin" : ""}
          </>
        }
      />
      <section className="panel" aria-labelledby="access-title">
        <h2 id="access-title">What you read</h2>
        {viewer.isAdmin ? (
          <p>Every tenant: you are an admin of this Routelens.</p>
        ) : roles.length === 0 ? (
          <p>No tenant yet: ask an admin of this Routelens to give you a role.</p>
        ) : (
          <ul className="plain-list">
            {roles.map(([tenant, role]) => (
              <li key={tenant}>
                <span className="mono">{tenant}</span>: {role}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="password-title">
        <h2 id="password-title">{hasPassword ? "Change your password" : "Set a password"}</h2>
        <p className="muted">
          {hasPassword
            ? "Changing it signs you out everywhere else."
            : `You sign in ${sso ? "through single sign-on" : "with one-time links"} today; with a password you can also sign in with your email on the sign-in page.`}
        </p>
        <PasswordForm hasPassword={hasPassword} />
      </section>
    </>
  );
}
