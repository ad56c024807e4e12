import { describe, expect, it } from "vitest";
import { configToFormFields, formFieldOf, formFieldsToConfig } from "./config-form";

const config = {
  roleTools: { action: ["lookup_order", "issue_refund"], reflection: null },
  alwaysInclude: ["hydrate_context"],
  triggerKeywords: { issue_refund: ["refund", "money back"] },
  policy: { maxSafetyLevel: "write", budgetUsd: 0.05 },
  catalog: [{ name: "issue_refund", description: "Refund an order." }],
};

describe("the config form", () => {
  it("reads a config into fields and back into the same config", () => {
    const fields = configToFormFields(config);
    expect(fields.palettes).toBe("action: lookup_order, issue_refund\nreflection: abstain");
    expect(fields.keywords).toBe("issue_refund: refund, money back");
    expect(fields.budgetUsd).toBe("0.05");
    expect(formFieldsToConfig(fields, config)).toEqual({ ok: true, config });
  });

  it("changes what was typed and keeps the catalogue it does not show", () => {
    const fields = {
      ...configToFormFields(config),
      palettes: "action: lookup_order, issue_refund, reship_order\nreflection: \n",
      maxSafetyLevel: "2",
      budgetUsd: "",
      agentVisibleOnly: true,
    };
    const read = formFieldsToConfig(fields, config);
    expect(read).toEqual({
      ok: true,
      config: {
        ...config,
        roleTools: { action: ["lookup_order", "issue_refund", "reship_order"], reflection: [] },
        policy: { maxSafetyLevel: 2, agentVisibleOnly: true },
      },
    });
  });

  it("leaves fields the base did not have absent while they are empty", () => {
    const read = formFieldsToConfig(configToFormFields({}), {});
    expect(read).toEqual({ ok: true, config: {} });
  });

  it("names the line it cannot read, and a budget that is not a number", () => {
    const fields = {
      ...configToFormFields(config),
      palettes: "action: a\nno colon here\naction: b",
      budgetUsd: "five",
    };
    expect(formFieldsToConfig(fields, config)).toEqual({
      ok: false,
      issues: [
        { field: "palettes", message: expect.stringMatching(/^line 2: must be "name: a, b, c"/) },
        { field: "palettes", message: "line 3: action is already listed above" },
        { field: "budgetUsd", message: "must be a number of US dollars, e.g. 0.05" },
      ],
    });
  });

  it("puts a schema issue beside the form field it concerns", () => {
    expect(formFieldOf("roleTools.action[1]")).toBe("palettes");
    expect(formFieldOf("triggerKeywords.issue_refund")).toBe("keywords");
    expect(formFieldOf("policy.budgetUsd")).toBe("budgetUsd");
    expect(formFieldOf("alwaysInclude[0]")).toBe("alwaysInclude");
    expect(formFieldOf("catalog[0].name")).toBeNull();
  });
});
