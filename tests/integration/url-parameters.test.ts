/**
 * Hostile URL parameters against every page and CSV download of the production build: NUL in a
 * text filter, instants JavaScript can hold but PostgreSQL cannot, and path segments that are
 * not valid percent-encoding. Pages answer with their ordinary state (the broken parameter takes
 * its default) or 404; downloads answer 400 naming the parameter and the rule. Never a 5xx.
 */
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
const tenant = `urls-${Date.now()}`;
const runId = `run-urls-${Date.now()}`;

/**
 * An error thrown while a page streamed: React writes its digest (a number) into the RSC
 * payload. `notFound()` is written the same way with a named digest, so it does not match.
 */
const STREAMED_ERROR = /:E\{\\*"digest\\*":\\*"\d+\\*"/;

const HOSTILE_QUERIES = [
  "tenant=a%00b",
  "role=a%00b",
  "q=a%00b",
  "tool=a%00b",
  "runId=a%00b",
  "before=a%00b&after=b%00c",
  // Keys of the runs list that decode, but not to a key of a row (lib/dashboard/runs-position.ts).
  `sort=droppedTokens&after=${Buffer.from('["droppedTokens","1e999","a","b"]').toString("base64url")}`,
  `before=${Buffer.from('["lastSeen","2026-01-01T00:00:00.000Z","a","b\\u0000"]').toString("base64url")}`,
  "range=custom&from=-271821-04-20T00:00:00Z&to=-271821-04-21T00:00:00Z",
  "range=custom&from=-271821-04-20T00:00:00.000Z&to=2026-01-01T00:00:00Z",
  "range=custom&from=+275760-09-12T00:00:00Z&to=+275760-09-13T00:00:00Z",
  "range=custom&from=0000-01-01T00:00:00Z&to=0000-01-02T00:00:00Z",
  "tenant=%ZZ&role=%E0%A4%A",
  "page=1e400&size=-1&threshold=NaN",
];

/** Each page with text its ordinary render always contains. */
const PAGES = [
  { path: "/", text: "By tenant and role" },
  { path: "/runs", text: "Run id starts with" },
  { path: "/rollouts", text: "Before vs after a config change" },
  { path: "/tools", text: "Tools filters" },
];

beforeAll(async () => {
  const key = (await createApiKey(tenant)).key;
  const response = await postBatch(baseUrl, key, [decisionEvent({ run_id: runId })]);
  expect(response.status).toBe(200);
});

function withQuery(path: string, query: string): string {
  return `${baseUrl}${path}${path.includes("?") ? "&" : "?"}${query}`;
}

describe("pages with hostile parameters", () => {
  const pages = [...PAGES, { path: `/runs/${runId}?tenant=${tenant}`, text: runId }];
  for (const page of pages) {
    it(`${page.path} renders its ordinary state`, async () => {
      for (const query of HOSTILE_QUERIES) {
        const response = await admin.fetch(withQuery(page.path, query));
        const body = await response.text();
        expect(response.status, `${page.path} ${query}`).toBe(200);
        expect(body, `${page.path} ${query}`).not.toMatch(STREAMED_ERROR);
        expect(body, `${page.path} ${query}`).toContain(page.text);
      }
    });
  }

  it("a run trace whose run id cannot exist answers 404", async () => {
    for (const segment of ["%", "%ZZ", "%E0%A4%A", "a%00b", "run%00", "x".repeat(201), "ok%ZZ"]) {
      const response = await admin.fetch(`${baseUrl}/runs/${segment}`);
      expect(response.status, segment).toBe(404);
      const body = await response.text();
      expect(body, segment).not.toMatch(STREAMED_ERROR);
      expect(body, segment).toContain("Nothing lives at this address");
    }
  });
});

describe("CSV downloads with hostile parameters", () => {
  const exports = [
    "/api/export/runs",
    "/api/export/breakdown",
    "/api/export/tools",
    `/api/export/run?tenant=${tenant}&runId=${runId}`,
  ];

  it("answer 400 naming the parameter and the rule", async () => {
    const cases = [
      { query: "tenant=a%00b", message: "tenant: must not contain NUL (%00)" },
      { query: "role=a%00b", message: "role: must not contain NUL (%00)" },
      {
        query: "range=custom&from=-271821-04-20T00:00:00Z&to=2026-01-01T00:00:00Z",
        message: "from: expected an ISO-8601 date and time from 1970-01-01T00:00:00Z",
      },
      { query: "mode=sideways", message: "mode: " },
    ];
    for (const path of exports.slice(0, 3)) {
      for (const { query, message } of cases) {
        const response = await admin.fetch(withQuery(path, query));
        expect(response.status, `${path} ${query}`).toBe(400);
        const body = (await response.json()) as { error: string };
        expect(body.error, `${path} ${query}`).toContain(message);
      }
    }
    const runsOnly = await admin.fetch(`${baseUrl}/api/export/runs?q=a%00b`);
    expect(runsOnly.status).toBe(400);
    expect(((await runsOnly.json()) as { error: string }).error).toContain("q: must not contain");
    const toolsOnly = await admin.fetch(`${baseUrl}/api/export/tools?tool=a%00b`);
    expect(toolsOnly.status).toBe(400);

    for (const query of [`tenant=a%00b&runId=${runId}`, `tenant=${tenant}&runId=a%00b`]) {
      const response = await admin.fetch(`${baseUrl}/api/export/run?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain(
        "must not contain NUL (%00)",
      );
    }
    const missing = await admin.fetch(`${baseUrl}/api/export/run?runId=${runId}`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toContain("tenant: required");
  });

  it("never answer 5xx for any hostile query", async () => {
    for (const path of exports) {
      for (const query of HOSTILE_QUERIES) {
        const response = await admin.fetch(withQuery(path, query));
        await response.arrayBuffer();
        expect(response.status, `${path} ${query}`).toBeLessThan(500);
      }
    }
  });

  it("a run that does not exist is 404", async () => {
    const response = await admin.fetch(
      `${baseUrl}/api/export/run?tenant=${tenant}&runId=no-such-run`,
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "No such run for this tenant." });
  });
});

describe("renamed parameters", () => {
  it("an old rollouts link with cmode opens the same comparison", async () => {
    for (const query of ["cmode=observe", "compareMode=observe"]) {
      const response = await admin.fetch(`${baseUrl}/rollouts?${query}`);
      expect(response.status).toBe(200);
      expect(await response.text(), query).toContain("observe traffic only");
    }
  });
});
