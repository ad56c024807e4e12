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

describe("overview breakdown lines", () => {
  it("shows the first 25 lines in the chosen order, and all of them when asked", async () => {
    const tenant = `breakdown-${Date.now()}`;
    const key = (await createApiKey(tenant)).key;
    const roles = Array.from({ length: 30 }, (_, i) => `role-${String(i).padStart(2, "0")}`);
    // role-NN has NN + 1 decisions, so by decisions role-29 comes first and role-00 last.
    const events = roles.flatMap((role, i) =>
      Array.from({ length: i + 1 }, (_, n) =>
        decisionEvent({ run_id: `run-${role}`, iteration: n, role }),
      ),
    );
    expect((await postBatch(baseUrl, key, events)).status).toBe(200);
    const linked = (html: string) =>
      roles.filter((role) => new RegExp(`role=${role}(&|")`).test(html));
    // The page's text, without the comments React puts between adjacent text parts.
    const page = async (query: string) =>
      (await (await admin.fetch(`${baseUrl}/?tenant=${tenant}${query}`)).text()).replaceAll(
        "<!-- -->",
        "",
      );

    const top = await page("");
    expect(linked(top)).toEqual(roles.slice(5));
    expect(top).toContain("The first 25 of 30 lines in this order");
    expect(top).toContain("lines=all");

    const all = await page("&lines=all");
    expect(linked(all)).toEqual(roles);
    expect(all).toContain("All 30 lines.");
    // Changing a filter keeps every line: the filter form carries the choice.
    expect(all).toMatch(/<input type="hidden" name="lines" value="all"\/>/);
    expect(top).not.toMatch(/<input type="hidden" name="lines"/);

    // Sorted by role A→Z, the first 25 are role-00 … role-24.
    const byRole = await page("&sort=role");
    expect(linked(byRole)).toEqual(roles.slice(0, 25));
  });
});
