import { handleIngest } from "@/lib/ingest/handle";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return handleIngest(request);
}
