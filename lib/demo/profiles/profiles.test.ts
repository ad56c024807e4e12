import { describe, expect, it } from "vitest";
import { DEMO_PROFILES, DEMO_ROLES, selectProfiles } from "./index";

describe("demo tenant profiles", () => {
  it("cover at least three domains with distinct tenants", () => {
    expect(DEMO_PROFILES.length).toBeGreaterThanOrEqual(3);
    expect(new Set(DEMO_PROFILES.map((p) => p.domain)).size).toBe(DEMO_PROFILES.length);
    expect(new Set(DEMO_PROFILES.map((p) => p.tenantId)).size).toBe(DEMO_PROFILES.length);
    for (const p of DEMO_PROFILES) expect(p.tenantId).toMatch(/^demo-[a-z]+$/);
  });

  describe.each(DEMO_PROFILES.map((p) => [p.key, p] as const))("%s", (_key, profile) => {
    const names = new Set(profile.tools.map((t) => t.name));
    const versions = [
      profile.routing,
      ...profile.changes.flatMap((c) => (c.routing ? [c.routing] : [])),
    ];

    it("has 15–40 uniquely named tools with descriptions of varying length", () => {
      expect(profile.tools.length).toBeGreaterThanOrEqual(15);
      expect(profile.tools.length).toBeLessThanOrEqual(40);
      expect(names.size).toBe(profile.tools.length);
      for (const tool of profile.tools) {
        expect(tool.name).toMatch(/^[a-z][a-z0-9_]+$/);
        expect(tool.description.length).toBeGreaterThan(10);
      }
      const lengths = profile.tools.map((t) => t.description.length);
      expect(Math.max(...lengths)).toBeGreaterThan(3 * Math.min(...lengths));
    });

    it("declares trigger keywords on some tools and none on others", () => {
      const withKeywords = profile.tools.filter((t) => (t.keywords?.length ?? 0) > 0).length;
      expect(withKeywords).toBeGreaterThan(profile.tools.length / 2);
      expect(withKeywords).toBeLessThan(profile.tools.length);
    });

    it("names only its own tools in palettes, always-include lists, keywords and scenarios", () => {
      for (const routing of versions) {
        for (const role of DEMO_ROLES) {
          expect(routing.roleTools[role].length).toBeGreaterThan(0);
          for (const name of routing.roleTools[role]) expect(names).toContain(name);
        }
        for (const name of routing.alwaysInclude) expect(names).toContain(name);
        for (const name of Object.keys(routing.extraKeywords ?? {})) expect(names).toContain(name);
      }
      for (const scenario of profile.scenarios) {
        expect(scenario.queries.length).toBeGreaterThan(0);
        if (scenario.forced) expect(names).toContain(scenario.forced);
        for (const name of scenario.procedure ?? []) expect(names).toContain(name);
        for (const step of scenario.steps) {
          for (const name of [...step.calls, ...(step.oneOf ?? []).flat()])
            expect(names).toContain(name);
        }
      }
    });

    it("has an always-include tool and at least one forced-tool scenario", () => {
      expect(profile.routing.alwaysInclude.length).toBeGreaterThan(0);
      expect(profile.scenarios.some((s) => s.forced)).toBe(true);
    });
  });

  it("include one tenant that switches a role to enforce and changes its configuration", () => {
    const changing = DEMO_PROFILES.filter(
      (p) => p.changes.some((c) => c.routing) && p.changes.some((c) => c.modes),
    );
    expect(changing.length).toBeGreaterThanOrEqual(1);
    for (const profile of changing) {
      for (const change of profile.changes) {
        expect(change.at).toBeGreaterThan(0);
        expect(change.at).toBeLessThan(1);
        for (const [role, mode] of Object.entries(change.modes ?? {})) {
          expect(profile.modes[role as (typeof DEMO_ROLES)[number]]).toBe("observe");
          expect(mode).toBe("enforce");
        }
      }
    }
  });

  it("mix observe and enforce across tenants and roles", () => {
    const modes = DEMO_PROFILES.flatMap((p) => DEMO_ROLES.map((role) => p.modes[role]));
    expect(modes).toContain("observe");
    expect(modes).toContain("enforce");
  });
});

describe("selectProfiles", () => {
  it("takes keys or tenant ids, and all", () => {
    expect(selectProfiles("support, demo-pricing").map((p) => p.key)).toEqual([
      "support",
      "pricing",
    ]);
    expect(selectProfiles("all")).toHaveLength(DEMO_PROFILES.length);
    expect(selectProfiles("")).toHaveLength(DEMO_PROFILES.length);
  });

  it("names an unknown tenant", () => {
    expect(() => selectProfiles("support,billing")).toThrow(/unknown demo tenant "billing"/);
  });
});
