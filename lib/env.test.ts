import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("parseEnv", () => {
  it("applies defaults when nothing is set", () => {
    const parsed = parseEnv({});
    expect(parsed.PORT).toBe(3000);
    expect(parsed.DATABASE_URL).toBeUndefined();
    expect(parsed.ROUTELENS_DEMO).toBe(true);
  });

  it("reads a port and a database URL", () => {
    const parsed = parseEnv({ PORT: "4100", DATABASE_URL: "postgresql://u:p@db:5432/x" });
    expect(parsed.PORT).toBe(4100);
    expect(parsed.DATABASE_URL).toBe("postgresql://u:p@db:5432/x");
  });

  it("names the variable and the rule when a value is bad", () => {
    expect(() => parseEnv({ PORT: "99999" })).toThrow(/PORT must be between 1 and 65535/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(
      /DATABASE_URL must be a postgresql:\/\/ connection URL/,
    );
    expect(() => parseEnv({ ROUTELENS_DEMO: "maybe" })).toThrow(EnvError);
  });

  it("treats ROUTELENS_DEMO=0 as off", () => {
    expect(parseEnv({ ROUTELENS_DEMO: "0" }).ROUTELENS_DEMO).toBe(false);
  });
});
