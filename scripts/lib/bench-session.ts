/**
 * Benchmarks read pages and downloads as a signed-in admin, like a person would: a throwaway
 * admin in the benchmark's database, signed in through the real sign-in endpoint.
 */
import { randomBytes } from "node:crypto";
import { createTestUser, signIn } from "@/tests/support/accounts";

/** The `Cookie` header of a fresh admin session on the server at `baseUrl`. */
export async function benchAdminCookie(databaseUrl: string, baseUrl: string): Promise<string> {
  const user = await createTestUser(databaseUrl, {
    email: `bench-${randomBytes(4).toString("hex")}@example.test`,
    isAdmin: true,
  });
  return signIn(baseUrl, user);
}
