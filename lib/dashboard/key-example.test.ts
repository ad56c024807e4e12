import { describe, expect, it } from "vitest";
import { buildFirstEvent } from "./first-event";
import { buildKeyCurlLine } from "./key-example";

describe("curl example of a new key", () => {
  const now = new Date("2026-03-10T10:00:00.123Z");
  const key = "rl_abcdefghijklmnopqrstuvwxyz012345";

  it("posts the first event with the key, on one line", () => {
    const curl = buildKeyCurlLine("https://routelens.example", key, now);
    expect(curl).not.toContain("\n");
    expect(curl).toMatch(/^curl -X POST https:\/\/routelens\.example\/api\/ingest /);
    expect(curl).toContain(`-H "Authorization: Bearer ${key}"`);
    expect(curl).toContain('-H "Content-Type: application/json"');
    const body = curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'"));
    expect(JSON.parse(body)).toEqual({ batch: [buildFirstEvent(now)] });
  });
});
