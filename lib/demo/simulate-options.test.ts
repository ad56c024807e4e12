import { describe, expect, it } from "vitest";
import { parseKeysFile, parseSimulateArgs, UsageError } from "./simulate-options";

const parse = (...argv: string[]) => parseSimulateArgs(argv, {});

describe("parseSimulateArgs", () => {
  it("reads a backfill with defaults", () => {
    const options = parse("--backfill", "7d");
    expect(options).toMatchObject({
      backfillMs: 7 * 86_400_000,
      live: false,
      endpoint: "http://localhost:3000",
      key: null,
      keysFile: ".data/demo-keys.json",
      seed: 7,
      decisionsPerDay: 16_000,
      concurrency: 4,
    });
    expect(options.profiles.map((p) => p.key)).toEqual(["pricing", "support", "analytics"]);
  });

  it("reads every option, and the key and endpoint from the environment", () => {
    const options = parseSimulateArgs(
      ["--live", "--tenants", "support", "--seed", "12", "--per-day", "500", "--concurrency", "2"],
      { ROUTELENS_API_KEY: "rl_env", ROUTELENS_ENDPOINT: "https://rl.example.com/" },
    );
    expect(options).toMatchObject({
      live: true,
      backfillMs: null,
      key: "rl_env",
      endpoint: "https://rl.example.com",
      seed: 12,
      decisionsPerDay: 500,
      concurrency: 2,
    });
    expect(options.profiles.map((p) => p.key)).toEqual(["support"]);
    expect(
      parseSimulateArgs(["--live", "--key", "rl_flag"], { ROUTELENS_API_KEY: "rl_env" }).key,
    ).toBe("rl_flag");
  });

  it.each([
    [["--backfill", "7days"], /--backfill must be a span like 7d/],
    [["--backfill", "0d"], /--backfill/],
    [["--live", "--seed", "1.5"], /--seed must be a whole number/],
    [["--live", "--seed", "-1"], /--seed/],
    [["--live", "--per-day", "lots"], /--per-day must be a whole number/],
    [["--live", "--concurrency", "100"], /--concurrency must be a whole number from 1 to 32/],
    [["--live", "--tenants", "billing"], /--tenants: unknown demo tenant "billing"/],
    [["--live", "--endpoint", "localhost:3000"], /--endpoint must be an http\(s\) URL/],
    [["--live", "--colour", "red"], /Unknown option '--colour'/],
    [["--live", "extra"], /Unexpected argument 'extra'/],
    [["--backfill"], /--backfill/],
    [[], /choose --backfill <span>, --live, or both/],
  ])("rejects %j naming the argument", (argv, message) => {
    expect(() => parse(...argv)).toThrow(UsageError);
    expect(() => parse(...argv)).toThrow(message);
  });

  it("treats empty environment variables as unset", () => {
    const options = parseSimulateArgs(["--live"], {
      ROUTELENS_API_KEY: "",
      ROUTELENS_ENDPOINT: "",
    });
    expect(options).toMatchObject({ key: null, endpoint: "http://localhost:3000" });
  });

  it("accepts --help alone", () => {
    expect(parse("--help").help).toBe(true);
  });
});

describe("parseKeysFile", () => {
  it("reads plain and wrapped maps", () => {
    expect(parseKeysFile('{"demo-support": "rl_a"}', "f")).toEqual({ "demo-support": "rl_a" });
    expect(parseKeysFile('{"note": "x", "keys": {"demo-support": "rl_a"}}', "f")).toEqual({
      "demo-support": "rl_a",
    });
  });

  it("names a broken file", () => {
    expect(() => parseKeysFile("{", "keys.json")).toThrow("keys.json is not valid JSON");
    expect(() => parseKeysFile("[1]", "keys.json")).toThrow(/keys.json must hold/);
  });
});
