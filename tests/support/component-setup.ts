/**
 * Setup of the component tests: each test renders into a fresh document. (Testing Library
 * unmounts after each test by itself only when the runner exposes global hooks; vitest does
 * not by default.)
 */
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
});
