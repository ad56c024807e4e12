import { beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/lib/keys";
import { decisionEvent } from "@/lib/telemetry/events";
import { type SignedIn, signedInUser } from "../support/accounts";
import { postBatch } from "../support/http";

const baseUrl = inject("baseUrl");
let admin: SignedIn;
beforeAll(async () => {
  admin = await signedInUser(baseUrl, inject("databaseUrl"), { isAdmin: true });
});

describe("run trace page status", () => {
  it("answers 200 for a stored run and 404 for a run id no tenant has", async () => {
    const tenant = `pages-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const runId = `run-pages-${Date.now()}`;
    expect((await postBatch(baseUrl, key, [decisionEvent({ run_id: runId })])).status).toBe(200);

    const found = await admin.fetch(`${baseUrl}/runs/${runId}?tenant=${tenant}`);
    expect(found.status).toBe(200);
    expect(await found.text()).toContain(runId);

    const missing = await admin.fetch(`${baseUrl}/runs/run-that-was-never-sent`);
    expect(missing.status).toBe(404);
  });
});
