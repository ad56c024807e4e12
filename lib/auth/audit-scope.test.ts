import { describe, expect, it } from "vitest";
import type { TenantRole } from "@/lib/schemas/accounts";
import { auditScopeIncludes, auditScopeOf } from "./audit-scope";

const viewer = (isAdmin: boolean, roles: Record<string, TenantRole>) => ({
  userId: "u1",
  isAdmin,
  roles: new Map(Object.entries(roles)),
});

describe("auditScopeOf", () => {
  it("gives an admin every entry", () => {
    const scope = auditScopeOf(viewer(true, {}));
    expect(scope).toEqual({ all: true });
    expect(scope && auditScopeIncludes(scope, "any-tenant")).toBe(true);
  });

  it("gives a maintainer their maintained tenants (sorted) and their own actions", () => {
    const scope = auditScopeOf(
      viewer(false, { zeta: "maintainer", beta: "maintainer", read: "viewer" }),
    );
    expect(scope).toEqual({ all: false, tenants: ["beta", "zeta"], actorId: "u1" });
    expect(scope && auditScopeIncludes(scope, "beta")).toBe(true);
    expect(scope && auditScopeIncludes(scope, "read")).toBe(false);
  });

  it("gives a viewer of every tenant no audit log at all", () => {
    expect(auditScopeOf(viewer(false, { a: "viewer", b: "viewer" }))).toBeNull();
    expect(auditScopeOf(viewer(false, {}))).toBeNull();
  });
});
