import { handleOtlpTraces } from "@/lib/otlp/handle";
import { storeMappedSpans } from "@/lib/otlp/store";

export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return handleOtlpTraces(request, storeMappedSpans);
}
