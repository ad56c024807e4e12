import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInvitationForm } from "@/components/auth/accept-invitation-form";
import { LocalTime } from "@/components/ui/local-time";
import { findInvitation, INVITATION_PROBLEMS } from "@/lib/auth/invitations";
import { TENANT_ROLE_TEXT } from "@/lib/schemas/accounts";

export const metadata: Metadata = { title: "Accept invitation", referrer: "no-referrer" };

/** An invitation link: who it invites and what it grants, and the form to accept it. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await findInvitation(token);
  if (invitation.status !== "valid") {
    return (
      <div className="panel auth-card">
        <h1>This invitation cannot be used</h1>
        <p role="alert">{INVITATION_PROBLEMS[invitation.status]}</p>
        <p>
          <Link href="/sign-in">Go to sign-in</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="panel auth-card">
      <h1>Join Routelens</h1>
      <p>
        You are invited as <strong className="mono">{invitation.email}</strong>
        {invitation.isAdmin ? ", as an instance admin (every tenant, user and key)" : ""}.
      </p>
      {invitation.roles.length > 0 ? (
        <ul data-testid="invitation-roles">
          {invitation.roles.map((entry) => (
            <li key={entry.tenant}>
              <span className="mono">{entry.tenant}</span>: {entry.role} (
              {TENANT_ROLE_TEXT[entry.role]})
            </li>
          ))}
        </ul>
      ) : invitation.isAdmin ? null : (
        <p className="muted">No tenant yet: an admin can give you a role later.</p>
      )}
      <p className="muted">
        This link works once, until <LocalTime iso={invitation.expiresAt.toISOString()} />.
      </p>
      <AcceptInvitationForm token={token} email={invitation.email} />
    </div>
  );
}
