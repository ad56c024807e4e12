/// <reference types="vite/client" />
/**
 * The pure-core boundary: lib/selection imports nothing from the app, the database, the UI or
 * Node built-ins. Sources are read through Vite's raw glob so this test needs no Node import.
 */
import { describe, expect, it } from "vitest";

const sources: Record<string, string> = import.meta.glob(["./**/*.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Every module specifier in import/export-from statements, bare imports, import() and require(). */
function specifiersOf(source: string): string[] {
  const patterns = [
    /\b(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) =>
    [...source.matchAll(pattern)].map((match) => match[1] ?? ""),
  );
}

const forbidden = [
  /^next($|\/)/,
  /^react($|\/)/,
  /^react-dom($|\/)/,
  /^@prisma\//,
  /^pg($|\/)/,
  /^node:/,
  /^@\/lib\/db($|\/)/,
  /^@\/app($|\/)/,
  /^@\/components($|\/)/,
  /(^|\/)lib\/db($|\/)/,
  /^(\.\.\/)+(app|components|generated)($|\/)/,
];
const allowedInSource = (specifier: string) =>
  specifier.startsWith("./") ||
  specifier.startsWith("../") ||
  specifier === "@/lib/schemas/events" ||
  // The wire schema's verdict compiled to plain checks (built from events.ts, nothing else).
  specifier === "@/lib/schemas/event-guard" ||
  specifier === "@/lib/schemas/routing-config" ||
  specifier === "zod";

const files = Object.keys(sources);
const sourceFiles = files.filter((file) => !file.endsWith(".test.ts"));

describe("lib/selection import boundary", () => {
  it("finds the sources it checks", () => {
    expect(sourceFiles).toContain("./index.ts");
    expect(sourceFiles).toContain("./stages/policy.ts");
    expect(files.some((file) => file.endsWith(".test.ts"))).toBe(true);
    // Vite leaves the importing file out of its own glob, so the samples below are not scanned.
    expect(files).not.toContain("./boundary.test.ts");
  });

  it("imports nothing from next, react, @prisma/*, pg, lib/db, app, components or node:*", () => {
    const violations = files.flatMap((file) =>
      specifiersOf(sources[file] ?? "")
        .filter((specifier) => forbidden.some((pattern) => pattern.test(specifier)))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(violations).toEqual([]);
  });

  it("imports only relative modules, the wire and config schemas, the wire guard and zod outside tests", () => {
    const violations = sourceFiles.flatMap((file) =>
      specifiersOf(sources[file] ?? "")
        .filter((specifier) => !allowedInSource(specifier))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(violations).toEqual([]);
  });

  it("relative imports never leave lib/selection", () => {
    const escapes = sourceFiles.flatMap((file) => {
      const depth = file.split("/").length - 2;
      return specifiersOf(sources[file] ?? "")
        .filter((specifier) => specifier.startsWith("../"))
        .filter((specifier) => (specifier.match(/\.\.\//g) ?? []).length > depth)
        .map((specifier) => `${file}: ${specifier}`);
    });
    expect(escapes).toEqual([]);
  });

  it("detects a forbidden import in a sample (the scanner works)", () => {
    const sample = ['import { PrismaClient } from "@prisma/client";', 'import fs from "node:fs";'];
    const found = specifiersOf(sample.join("\n"));
    expect(found).toEqual(["@prisma/client", "node:fs"]);
    expect(found.every((specifier) => forbidden.some((pattern) => pattern.test(specifier)))).toBe(
      true,
    );
  });
});
