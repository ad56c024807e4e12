import { z } from "zod";
import { eventSchema, LIMITS } from "./events";
import { ROUTING_CONFIG_LIMITS, routingConfigJsonSchema } from "./routing-config";

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

/** The routing configuration's JSON form (SPEC §10), generated from the zod schema. */
export function routingConfigJsonSchemaDocument(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(routingConfigJsonSchema, { target: "draft-2020-12" }),
    title: "Routelens routing configuration",
    description: `The JSON form of a routing configuration, as stored per tenant and replayed by backtests. Unknown fields are rejected; at most ${ROUTING_CONFIG_LIMITS.jsonBytes} bytes as JSON.`,
  };
}
