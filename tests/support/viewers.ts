/**
 * What tests that call server actions and page queries directly need: a real user in the
 * test database seen as the access check sees a signed-in one, and the form data a browser
 * would post.
 */
import type { Viewer } from "@/lib/auth/access";
import type { TenantRole } from "@/lib/schemas/accounts";
import { createTestUser } from "./accounts";

/** A new user with `roles` (and admin or not), as the signed-in viewer of a request. */
export async function testViewer(
  databaseUrl: string,
  roles: Record<string, TenantRole>,
  isAdmin = false,
): Promise<Viewer & { password: string }> {
  const user = await createTestUser(databaseUrl, { roles, isAdmin });
  return {
    userId: user.id,
    email: user.email,
    name: user.email,
    isAdmin,
    roles: new Map(Object.entries(roles)),
    password: user.password,
  };
}

/** Form data with one entry per value (a list gives the field several entries). */
export function formData(fields: Record<string, string | readonly string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of typeof value === "string" ? [value] : value) data.append(name, item);
  }
  return data;
}
