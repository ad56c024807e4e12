/** Users as the settings page and `npm run users -- list` show them. */
import { getPrisma } from "@/lib/db/client";
import { type TenantRole, tenantRoleSchema } from "@/lib/schemas/accounts";

export interface UserSummary {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  deactivatedAt: Date | null;
  createdAt: Date;
  /** The latest session start, if any session is left. */
  lastSignIn: Date | null;
  roles: { tenant: string; role: TenantRole }[];
  /** How the user can sign in: "password", "sso". */
  methods: string[];
}

export async function listUsers(): Promise<UserSummary[]> {
  const users = await getPrisma().user.findMany({
    orderBy: { email: "asc" },
    take: 5_000,
    select: {
      id: true,
      email: true,
      name: true,
      isAdmin: true,
      deactivatedAt: true,
      createdAt: true,
      memberships: { select: { tenantId: true, role: true }, orderBy: { tenantId: "asc" } },
      sessions: { select: { createdAt: true }, orderBy: { createdAt: "desc" }, take: 1 },
      accounts: { select: { providerId: true, password: true } },
    },
  });
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    isAdmin: user.isAdmin,
    deactivatedAt: user.deactivatedAt,
    createdAt: user.createdAt,
    lastSignIn: user.sessions[0]?.createdAt ?? null,
    roles: user.memberships.flatMap((member) => {
      const role = tenantRoleSchema.safeParse(member.role);
      return role.success ? [{ tenant: member.tenantId, role: role.data }] : [];
    }),
    methods: user.accounts.map((account) =>
      account.providerId === "credential" ? (account.password ? "password" : "link") : "sso",
    ),
  }));
}
