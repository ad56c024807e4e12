/**
 * Server and browser must render the same markup: a spec that calls this fails any test whose
 * page logged a hydration mismatch (React's errors #418, #423, #425).
 */
import { type test as base, expect } from "@playwright/test";

export function failOnHydrationErrors(test: typeof base): void {
  let consoleErrors: string[] = [];
  test.beforeEach(({ page }) => {
    consoleErrors = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
  });
  test.afterEach(() => {
    expect(consoleErrors.filter((text) => /hydrat|#418|#423|#425/i.test(text))).toEqual([]);
  });
}
