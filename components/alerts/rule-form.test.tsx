/**
 * The rule form: its "now" line follows the fields (the server action is replaced by a stub
 * that answers like `previewRuleAs`), and an edited rule shows its tenant instead of a choice.
 */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

const preview = vi.fn();

vi.mock("@/lib/auth/alert-actions", () => ({
  createAlertRule: vi.fn(async () => ({})),
  updateAlertRule: vi.fn(async () => ({})),
  previewAlertRule: (input: Record<string, unknown>) => preview(input),
}));

const { RuleForm } = await import("./rule-form");

beforeEach(() => {
  preview.mockReset();
  preview.mockResolvedValue({
    ok: true,
    text: "3.1 % over 312 outcomes",
    value: 3.1,
    sample: 312,
    from: "2026-03-01T11:45:00.000Z",
    to: "2026-03-01T12:00:00.000Z",
  });
});

describe("RuleForm", () => {
  it("shows the rule's value now and whether it would fire, asked again as fields change", async () => {
    render(<RuleForm tenants={["acme", "globex"]} allowAllTenants={false} />);
    await waitFor(() =>
      expect(screen.getByTestId("rule-preview").textContent).toContain(
        "now: 3.1 % over 312 outcomes",
      ),
    );
    expect(preview).toHaveBeenLastCalledWith(
      expect.objectContaining({ tenant: "acme", metric: "harmful-drop-rate", windowMinutes: "15" }),
    );
    await act(async () => {
      fireEvent.change(screen.getByLabelText(/^Threshold/), { target: { value: "2" } });
    });
    await waitFor(() =>
      expect(screen.getByTestId("rule-preview").textContent).toContain("would fire"),
    );
    await act(async () => {
      fireEvent.change(screen.getByLabelText(/^Minimum sample/), { target: { value: "500" } });
    });
    await waitFor(() =>
      expect(screen.getByTestId("rule-preview").textContent).toContain("would not fire"),
    );
    expect(screen.getByTestId("rule-preview").textContent).toContain("below the minimum sample");
    expect(screen.queryByRole("option", { name: "all tenants" })).toBeNull();
  });

  it("names the field that keeps the value from being read", async () => {
    preview.mockResolvedValue({
      ok: false,
      fieldErrors: {
        windowMinutes: "Window must be between 5 minutes and 24 hours (5–1440 minutes)",
      },
    });
    render(<RuleForm tenants={["acme"]} allowAllTenants />);
    await waitFor(() =>
      expect(screen.getByTestId("rule-preview").textContent).toContain(
        "Window must be between 5 minutes and 24 hours",
      ),
    );
    expect(screen.getByRole("option", { name: "all tenants" })).toBeTruthy();
  });

  it("keeps an edited rule's tenant and channels, each channel sending its id", async () => {
    render(
      <RuleForm
        tenants={[]}
        allowAllTenants
        initial={{
          id: "8f1c7a3e-7f57-4c2c-9a54-3f4e0c7a1b20",
          name: "Silence",
          tenant: "acme",
          role: "",
          mode: "",
          metric: "decisions",
          windowMinutes: 30,
          comparison: "lt",
          threshold: 1,
          minSample: 0,
          mutedUntil: null,
          channels: [{ id: "c1", kind: "webhook", url: "https://example.com/hook" }],
        }}
      />,
    );
    expect(screen.getByTestId("rule-tenant").textContent).toBe("acme");
    expect(screen.queryByRole("combobox", { name: "Tenant" })).toBeNull();
    expect(screen.getByRole("button", { name: "Save rule" })).toBeTruthy();
    const form = screen
      .getByRole("button", { name: "Save rule" })
      .closest("form") as HTMLFormElement;
    const data = new FormData(form);
    expect(data.get("tenant")).toBe("acme");
    expect(data.getAll("channelId")).toEqual(["c1"]);
    expect(data.getAll("channelUrl")).toEqual(["https://example.com/hook"]);
    await waitFor(() => expect(preview).toHaveBeenCalled());
  });
});
