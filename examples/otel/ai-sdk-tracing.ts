/**
 * The README's "Vercel AI SDK" set-up, kept as code so an integration test runs it against a
 * real server: OpenTelemetry with the OTLP protobuf exporter pointed at Routelens, and the
 * AI SDK's span integration registered on it.
 */
import { OpenTelemetry } from "@ai-sdk/otel";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { registerTelemetry } from "ai";

export function startRoutelensTracing(routelensUrl: string, apiKey: string) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "support-agent" }),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({
          url: `${routelensUrl}/api/otlp/v1/traces`,
          headers: { Authorization: `Bearer ${apiKey}` },
        }),
      ),
    ],
  });
  registerTelemetry(new OpenTelemetry({ tracer: provider.getTracer("ai") }));
  return provider; // await provider.shutdown() before the process exits: it sends what is left
}
