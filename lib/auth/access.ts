/**
 * Who is asking, and which tenants they may read: the one access check (SPEC §7). Every page,
 * download, server action and API read starts here.
 *
 * - `getViewer()` resolves the request's session (once per request) into the signed-in user,
 *   whether they are an instance admin, and their role in each tenant.
 * - `requireViewer()` is the pages' entry: anonymous requests are sent to `/sign-in` (or to
 *   `/setup` while the instance has no user).
 * - `scopeOf(viewer)` is the `TenantScope` every dashboard query takes: admins read every
 *   tenant, everyone else the tenants they are a member of. The query types require it, so a
 *   query cannot be written without one.
 * - `canRead` / `canMaintain` answer for one tenant; a tenant outside the scope is answered
 *   as if it did not exist (404), never 403, so ids of other tenants are not confirmed.
 */
import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { getPrisma } from "@/lib/db/client";
import type { TenantRole } from "@/lib/schemas/accounts";
import { tenantParam } from "@/lib/schemas/dashboard";
import { REQUEST_PATH_HEADER, safeNextPath } from "./paths";
import { readMemberships } from "./roles";

export { safeNextPath } from "./paths";

import { ALL_TENANTS, type TenantScope, tenantsScope } from "./scope";
import { getAuth } from "./server";

export type { TenantScope } from "./scope";

export interface Viewer {
  userId: string;
  email: string;
  name: string;
  isAdmin: boolean;
  /** The viewer's role per tenant (admins: none needed, they read and manage all). */
  roles: ReadonlyMap<string, TenantRole>;
}

async function loadViewer(requestHeaders: Headers): Promise<Viewer | null> {
  // The session comes with its user row, read afresh (no cookie cache): deactivation and
  // admin changes count from the next request.
  const session = await getAuth().api.getSession({ headers: requestHeaders });
  if (!session || session.user.deactivatedAt) return null;
  const memberships = await getPrisma().tenantMember.findMany({
    where: { userId: session.user.id },
    select: { tenantId: true, role: true },
  });
  const roles = new Map(readMemberships(memberships).map(({ tenant, role }) => [tenant, role]));
  const { id: userId, email, name, isAdmin } = session.user;
  return { userId, email, name, isAdmin: isAdmin === true, roles };
}

/** The signed-in user of this request, or null. Resolved once per request. */
export const getViewer = cache(async (): Promise<Viewer | null> => loadViewer(await headers()));

/** The signed-in user of a route handler's request, or null. */
export async function viewerOfRequest(request: Request): Promise<Viewer | null> {
  return loadViewer(request.headers);
}

let instanceHasUsers = false;

/** True once any user exists (remembered: users are never all removed). */
export async function hasAnyUser(): Promise<boolean> {
  if (instanceHasUsers) return true;
  instanceHasUsers = (await getPrisma().user.count({ take: 1 })) > 0;
  return instanceHasUsers;
}

/**
 * The signed-in user of a page; otherwise redirects to `/sign-in` (back to this page after),
 * or to `/setup` when the instance has no user yet.
 */
export async function requireViewer(): Promise<Viewer> {
  const viewer = await getViewer();
  if (viewer) return viewer;
  if (!(await hasAnyUser())) redirect("/setup");
  const path = safeNextPath((await headers()).get(REQUEST_PATH_HEADER));
  redirect(path === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(path)}`);
}

/** A page only instance admins may open: others get the not-found page. */
export async function requireAdmin(): Promise<Viewer> {
  const viewer = await requireViewer();
  if (!viewer.isAdmin) notFound();
  return viewer;
}

const scopes = new WeakMap<Viewer, TenantScope>();

/** The tenants `viewer` reads; the same object for the same viewer (a cache key per request). */
export function scopeOf(viewer: Viewer): TenantScope {
  let scope = scopes.get(viewer);
  if (!scope) {
    scope = viewer.isAdmin ? ALL_TENANTS : tenantsScope([...viewer.roles.keys()]);
    scopes.set(viewer, scope);
  }
  return scope;
}

export function canRead(viewer: Viewer, tenant: string): boolean {
  return viewer.isAdmin || viewer.roles.has(tenant);
}

export function canMaintain(viewer: Viewer, tenant: string): boolean {
  return viewer.isAdmin || viewer.roles.get(tenant) === "maintainer";
}

/** Tenants whose keys the viewer manages; null for admins (every tenant). */
export function maintainedTenants(viewer: Viewer): string[] | null {
  if (viewer.isAdmin) return null;
  return [...viewer.roles].filter(([, role]) => role === "maintainer").map(([tenant]) => tenant);
}

/**
 * The page's scope after checking the tenant its URL names: a tenant the viewer may not read
 * is answered with the not-found page, as if it did not exist.
 */
export function scopeForTenant(viewer: Viewer, tenant: string | undefined): TenantScope {
  if (tenant !== undefined && !canRead(viewer, tenant)) notFound();
  return scopeOf(viewer);
}

/**
 * A page's or section's scope in one call: the signed-in viewer (else the sign-in redirect)
 * and the tenant its URL names checked (else the not-found page). Cached per request, so
 * every section of a page may call it.
 */
export async function requireScope(tenant: string | undefined): Promise<TenantScope> {
  return scopeForTenant(await requireViewer(), tenant);
}

/**
 * The check of every dashboard page on a full request, made by the dashboard layout (above the
 * pages' loading states, so the answer's status is a real redirect or 404): signed in, and
 * the tenant the URL names (`?tenant=`) readable. The proxy passes the URL on in a header.
 */
export async function requirePageAccess(): Promise<Viewer> {
  const viewer = await requireViewer();
  const path = (await headers()).get(REQUEST_PATH_HEADER);
  if (path) {
    const tenant = new URL(path, "http://routelens.invalid").searchParams.get("tenant");
    const named = tenantParam.safeParse(tenant ?? undefined);
    if (named.success && named.data !== undefined) scopeForTenant(viewer, named.data);
  }
  return viewer;
}
