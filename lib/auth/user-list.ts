/** Users as the settings page and `npm run users -- list` show them. */
import { getPrisma } from "@/lib/db/client";
import type { TenantRole } from "@/lib/schemas/accounts";
import { readMemberships } from "./roles";

export interface UserSummary {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  deactivatedAt: Date | null;
  createdAt: Date;
  /** The latest sign-in, from the audit log (sessions are deleted at sign-out). */
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
      accounts: { select: { providerId: true, password: true } },
    },
  });
  const lastSignIns = await latestSignIns(users.map((user) => user.id));
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    isAdmin: user.isAdmin,
    deactivatedAt: user.deactivatedAt,
    createdAt: user.createdAt,
    lastSignIn: lastSignIns.get(user.id) ?? null,
    roles: readMemberships(user.memberships),
    methods: user.accounts.map((account) =>
      account.providerId === "credential" ? (account.password ? "password" : "link") : "sso",
    ),
  }));
}

/** Each user's latest `sign-in` audit row. */
async function latestSignIns(userIds: string[]): Promise<Map<string, Date>> {
  if (userIds.length === 0) return new Map();
  const rows = await getPrisma().auditEntry.groupBy({
    by: ["actorId"],
    where: { action: "sign-in", actorId: { in: userIds } },
    _max: { at: true },
  });
  const latest = new Map<string, Date>();
  for (const row of rows) {
    if (row.actorId && row._max.at) latest.set(row.actorId, row._max.at);
  }
  return latest;
}
