import { describe, expect, it } from "vitest";
import { acceptsApiKey, isPublicPath, safeNextPath, signInErrorPath } from "./paths";

describe("isPublicPath", () => {
  it.each([
    "/api/health",
    "/api/ingest",
    "/api/ingest/schema",
    "/api/routing-config/schema",
    "/api/otlp/v1/traces",
    "/api/auth/sign-in/email",
    "/sign-in",
    "/setup",
    "/invite/abc",
  ])("%s answers without a session", (path) => {
    expect(isPublicPath(path)).toBe(true);
  });

  it.each([
    "/",
    "/runs",
    "/runs/run-1",
    "/api/export/runs",
    "/api/healthz",
    "/api/ingestion",
    "/api/otlp/v1/traces/extra",
    "/sign-in-elsewhere",
    "/settings/keys",
    "/invite",
  ])("%s needs a session", (path) => {
    expect(isPublicPath(path)).toBe(false);
  });
});

describe("acceptsApiKey", () => {
  it("is the configs API only, never a page or another API", () => {
    expect(acceptsApiKey("/api/configs/acme")).toBe(true);
    for (const path of ["/configs/acme", "/api/configs", "/api/export/runs", "/settings/keys"]) {
      expect(acceptsApiKey(path)).toBe(false);
    }
  });
});

describe("safeNextPath", () => {
  it("keeps a path on this site with its query", () => {
    expect(safeNextPath("/runs?tenant=a")).toBe("/runs?tenant=a");
  });

  it.each([
    null,
    undefined,
    "",
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "runs",
  ])("sends %s to the overview instead", (path) => {
    expect(safeNextPath(path)).toBe("/");
  });
});

describe("signInErrorPath", () => {
  it("sends a failed sign-in to the sign-in page, which goes on to where it was headed", () => {
    expect(signInErrorPath("/")).toBe("/sign-in");
    expect(signInErrorPath("/runs?tenant=acme&mode=off")).toBe(
      "/sign-in?next=%2Fruns%3Ftenant%3Dacme%26mode%3Doff",
    );
  });
});
