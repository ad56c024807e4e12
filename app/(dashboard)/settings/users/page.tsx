import type { Metadata } from "next";
import { InvitationsTable } from "@/components/settings/invitations-table";
import { InviteForm } from "@/components/settings/invite-form";
import { UsersTable } from "@/components/settings/users-table";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin, scopeOf } from "@/lib/auth/access";
import { listInvitations } from "@/lib/auth/invitations";
import { listUsers } from "@/lib/auth/user-list";
import { listTenantIds } from "@/lib/db/queries/tenants";

export const metadata: Metadata = { title: "Users" };

/** Settings → Users (admins only): users, their tenant roles and state; invitations. */
export default async function UsersSettingsPage() {
  const viewer = await requireAdmin();
  const [users, invitations, tenants] = await Promise.all([
    listUsers(),
    listInvitations(),
    listTenantIds(scopeOf(viewer)),
  ]);
  return (
    <>
      <PageHeader
        title="Users and invitations"
        subtitle="Who may sign in, and what each user reads and manages. Deactivating a user ends their sessions at once."
      />
      <section className="panel" aria-labelledby="users-heading">
        <div className="section-head">
          <h2 id="users-heading">Users</h2>
        </div>
        <UsersTable
          tenants={tenants}
          rows={users.map((user) => ({
            id: user.id,
            email: user.email,
            name: user.name,
            isAdmin: user.isAdmin,
            deactivatedAt: user.deactivatedAt?.toISOString() ?? null,
            lastSignIn: user.lastSignIn?.toISOString() ?? null,
            roles: user.roles,
            methods: user.methods,
            isSelf: user.id === viewer.userId,
          }))}
        />
      </section>
      <section className="panel" aria-labelledby="invite-heading">
        <div className="section-head">
          <h2 id="invite-heading">Invite a user</h2>
        </div>
        <InviteForm tenants={tenants} />
      </section>
      <section className="panel" aria-labelledby="invitations-heading">
        <div className="section-head">
          <h2 id="invitations-heading">Invitations</h2>
        </div>
        <InvitationsTable
          rows={invitations.map((invitation) => ({
            ...invitation,
            createdAt: invitation.createdAt.toISOString(),
            expiresAt: invitation.expiresAt.toISOString(),
            closedAt: invitation.closedAt?.toISOString() ?? null,
          }))}
        />
      </section>
    </>
  );
}
