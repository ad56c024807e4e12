import { z } from "zod";
import { eventSchema, LIMITS } from "./events";

/** The machine-readable wire format v1: `{batch: [event, ...]}`, generated from the zod schema. */
export function wireJsonSchema(): Record<string, unknown> {
  const envelope = z.strictObject({
    batch: z.array(eventSchema).max(LIMITS.eventsPerBatch),
  });
  return {
    ...z.toJSONSchema(envelope, { target: "draft-2020-12" }),
    title: "Routelens ingest batch (wire format v1)",
    description:
      "POST /api/ingest body. Each event is validated on its own; unknown fields are rejected.",
  };
}
