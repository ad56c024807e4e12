import { describe, expect, it } from "vitest";
import { toolRoutingDecisionSchema } from "@/lib/schemas/events";
import { buildFirstEvent, buildFirstEventCurl } from "./first-event";

describe("first event example", () => {
  const now = new Date("2026-03-10T10:00:00.123Z");

  it("is a valid tool_routing_decision", () => {
    const result = toolRoutingDecisionSchema.safeParse(buildFirstEvent(now));
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it("is posted by a curl whose body is the batch envelope", () => {
    const curl = buildFirstEventCurl("http://localhost:3000", now);
    expect(curl).toContain("curl -X POST http://localhost:3000/api/ingest");
    expect(curl).toContain("Authorization: Bearer $ROUTELENS_KEY");
    const body = curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'"));
    expect(JSON.parse(body)).toEqual({ batch: [buildFirstEvent(now)] });
    expect(body).not.toContain("'");
  });
});
