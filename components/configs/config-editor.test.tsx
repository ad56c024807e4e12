/**
 * The config editor: the form writes the JSON the preview sends (the server actions are
 * replaced by stubs that answer like `previewConfigAs`), a schema issue is shown beside the
 * form field it concerns, and the save button appears only for the previewed text.
 */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

const preview = vi.fn();

vi.mock("@/lib/auth/config-actions", () => ({
  saveConfig: vi.fn(async () => ({})),
  previewConfig: (tenant: string, text: string) => preview(tenant, text),
}));

const { ConfigEditor } = await import("./config-editor");

const initial = {
  roleTools: { action: ["lookup_order"] },
  alwaysInclude: ["hydrate_context"],
  catalog: [{ name: "lookup_order", description: "Find an order." }],
};

beforeEach(() => {
  preview.mockReset();
});

describe("ConfigEditor", () => {
  it("builds the JSON from the form, keeping the catalogue, and previews it", async () => {
    preview.mockResolvedValue({
      ok: true,
      configVersion: "cfg_00000000000000aa",
      changed: true,
      currentVersion: "cfg_00000000000000bb",
      diff: [
        {
          field: "roleTools",
          label: "Palettes per role",
          changes: [{ kind: "names", subject: "action", added: ["issue_refund"], removed: [] }],
        },
      ],
    });
    render(<ConfigEditor tenant="acme" initialText={JSON.stringify(initial)} />);
    fireEvent.click(screen.getByTestId("mode-form"));
    fireEvent.change(screen.getByTestId("form-palettes"), {
      target: { value: "action: lookup_order, issue_refund" },
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId("preview-config"));
    });
    await waitFor(() =>
      expect(screen.getByTestId("preview-version").textContent).toBe("cfg_00000000000000aa"),
    );
    const sent = JSON.parse(preview.mock.calls[0]?.[1] as string);
    expect(sent).toEqual({ ...initial, roleTools: { action: ["lookup_order", "issue_refund"] } });
    expect(screen.getByTestId("preview-diff").textContent).toContain("+ issue_refund");
    expect(screen.getByTestId("save-config").textContent).toBe("Save version cfg_00000000000000aa");
  });

  it("shows a schema issue beside the form field it names, and offers no save", async () => {
    preview.mockResolvedValue({
      ok: false,
      issues: [{ field: "policy.budgetUsd", message: "must be 0 or more" }],
    });
    render(<ConfigEditor tenant="acme" initialText={JSON.stringify(initial)} />);
    fireEvent.click(screen.getByTestId("mode-form"));
    fireEvent.change(screen.getByLabelText("Budget per call (USD)"), { target: { value: "-1" } });
    await act(async () => {
      fireEvent.click(screen.getByTestId("preview-config"));
    });
    await waitFor(() =>
      expect(screen.getByTestId("issues-budgetUsd").textContent).toContain("must be 0 or more"),
    );
    expect(screen.queryByTestId("save-config")).toBeNull();
  });

  it("names a line of the form it cannot read before asking the server", () => {
    render(<ConfigEditor tenant="acme" initialText={JSON.stringify(initial)} />);
    fireEvent.click(screen.getByTestId("mode-form"));
    fireEvent.change(screen.getByTestId("form-keywords"), { target: { value: "no colon" } });
    expect(screen.getByTestId("issues-keywords").textContent).toContain("line 1");
    expect((screen.getByTestId("preview-config") as HTMLButtonElement).disabled).toBe(true);
    expect(preview).not.toHaveBeenCalled();
  });
});
