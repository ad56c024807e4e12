import { describe, expect, it } from "vitest";
import { auditSearchSchema } from "@/lib/schemas/audit";
import { parseSearchParams } from "@/lib/schemas/dashboard";
import { actionWords, auditView, describeAuditDetail, toAuditRow } from "./audit";

describe("audit rows", () => {
  it("turns a detail object into key: value pairs", () => {
    expect(describeAuditDetail({ method: "password", status: 401 })).toBe(
      "method: password, status: 401",
    );
    expect(describeAuditDetail({ isAdmin: true, note: null })).toBe("isAdmin: true, note: none");
    expect(describeAuditDetail(null)).toBe("");
    expect(describeAuditDetail({ nested: { a: 1 } })).toBe('nested: {"a":1}');
  });

  it("cuts long details", () => {
    const text = describeAuditDetail({ note: "x".repeat(1_000) });
    expect(text).toHaveLength(300);
    expect(text.endsWith("…")).toBe(true);
  });

  it("names known actions in words and unknown ones by their name", () => {
    expect(actionWords("sign-in-failed")).toBe("failed to sign in");
    expect(actionWords("rule-changed-in-a-later-version")).toBe("rule-changed-in-a-later-version");
    expect(actionWords("toString")).toBe("toString");
  });

  it("shows no actor for a failed sign-in of an unknown user, the tried email as target", () => {
    const row = toAuditRow({
      id: "7",
      at: "2026-11-30T10:00:00.000Z",
      actorEmail: null,
      action: "sign-in-failed",
      tenantId: null,
      target: "nobody@example.test",
      detail: { method: "password", status: 401 },
      ip: "10.0.0.1",
    });
    expect(row).toEqual({
      id: "7",
      at: "2026-11-30T10:00:00.000Z",
      who: null,
      action: "failed to sign in",
      tenant: null,
      target: "nobody@example.test",
      details: "method: password, status: 401",
      ip: "10.0.0.1",
    });
  });
});

describe("audit URL state", () => {
  it("falls back to defaults for malformed parameters", () => {
    const search = parseSearchParams(auditSearchSchema, {
      action: "drop-table",
      tenant: "a\u0000b",
      actor: "x\u0000",
      range: "forever",
      page: "-3",
    });
    expect(search).toEqual(auditSearchSchema.parse({}));
  });

  it("keeps good filters and writes links without defaults, back to page 1", () => {
    const search = parseSearchParams(auditSearchSchema, {
      action: "key-created",
      tenant: "acme",
      actor: "Ann@",
      range: "7d",
      page: "3",
    });
    expect(search).toMatchObject({ action: "key-created", tenant: "acme", actor: "Ann@", page: 3 });
    expect(auditView.href(search, { tenant: undefined })).toBe(
      "/settings/audit?range=7d&action=key-created&actor=Ann%40",
    );
    expect(auditView.href(search, { page: 4 })).toBe(
      "/settings/audit?range=7d&action=key-created&tenant=acme&actor=Ann%40&page=4",
    );
    expect(auditView.href(auditView.defaults)).toBe("/settings/audit");
  });
});
