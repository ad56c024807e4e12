/**
 * The runs search (`q`, a run-id prefix) takes the prefix literally: `%`, `_` and `\` in it
 * are characters to match, not LIKE wildcards or escapes.
 */

import { beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_TENANTS } from "@/lib/auth/scope";
import { countRunsUpTo, listRunsPage, type RunsFilter } from "@/lib/db/queries/runs";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
const tenant = `search-${Date.now()}`;

/** Run ids chosen so that an unescaped `%`, `_` or `\` would match more of them. */
const RUN_IDS = [
  "50%-off",
  "50%-offer",
  "50x-off",
  "500-off",
  "a_b",
  "axb",
  "a__b",
  "back\\slash",
  "back\\\\slash",
  "backslash",
  "back%slash",
];

beforeAll(async () => {
  const key = (await createApiKey(tenant)).key;
  const response = await postBatch(
    baseUrl,
    key,
    RUN_IDS.map((runId) => decisionEvent({ run_id: runId })),
  );
  expect(response.status).toBe(200);
});

async function search(prefix: string): Promise<string[]> {
  const filter: RunsFilter = { scope: ALL_TENANTS, tenant, runIdPrefix: prefix };
  const page = await listRunsPage(filter, { sort: "runId", dir: "asc" }, { kind: "first" }, 100);
  const ids = page.rows.map((row) => row.runId);
  expect(await countRunsUpTo(filter, 100)).toBe(ids.length);
  // Compared as sets: the order of run ids depends on the database's collation.
  return ids.sort();
}

describe("run id prefix search", () => {
  it("matches % literally", async () => {
    expect(await search("50%")).toEqual(["50%-off", "50%-offer"].sort());
    expect(await search("50%-off")).toEqual(["50%-off", "50%-offer"].sort());
    expect(await search("%")).toEqual([]);
  });

  it("matches _ literally", async () => {
    expect(await search("a_")).toEqual(["a__b", "a_b"].sort());
    expect(await search("a__")).toEqual(["a__b"]);
    expect(await search("_")).toEqual([]);
  });

  it("matches \\ literally", async () => {
    expect(await search("back\\")).toEqual(["back\\\\slash", "back\\slash"].sort());
    expect(await search("back\\s")).toEqual(["back\\slash"]);
    expect(await search("back\\\\")).toEqual(["back\\\\slash"]);
    expect(await search("back\\%")).toEqual([]);
  });

  it("still finds plain prefixes", async () => {
    expect(await search("back")).toEqual(
      ["back%slash", "back\\\\slash", "back\\slash", "backslash"].sort(),
    );
    expect(await search("5")).toEqual(["500-off", "50%-off", "50%-offer", "50x-off"].sort());
  });
});
