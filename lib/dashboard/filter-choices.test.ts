import { describe, expect, it } from "vitest";
import { listFilterChoices } from "./filter-choices";

const pairs = [
  { tenant: "acme", role: "action" },
  { tenant: "acme", role: "reasoning" },
  { tenant: "globex", role: "reflection" },
];

describe("listFilterChoices", () => {
  it("offers every tenant, with or without data, and all roles", () => {
    expect(listFilterChoices(pairs, ["zeta", "acme"], {})).toEqual({
      tenants: ["acme", "globex", "zeta"],
      roles: ["action", "reasoning", "reflection"],
    });
  });

  it("narrows roles to the chosen tenant and always offers the values in the URL", () => {
    expect(listFilterChoices(pairs, [], { tenant: "acme", role: "ghost" })).toEqual({
      tenants: ["acme", "globex"],
      roles: ["action", "ghost", "reasoning"],
    });
  });
});
