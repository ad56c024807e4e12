import { routingConfigJsonSchemaDocument } from "@/lib/schemas/json-schema";

export const dynamic = "force-static";

export function GET() {
  return Response.json(routingConfigJsonSchemaDocument());
}
