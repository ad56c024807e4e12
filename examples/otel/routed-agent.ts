/**
 * The README's "Routed agents" example, kept as code so an integration test runs it: a
 * language model middleware that routes every model call of a Vercel AI SDK agent through
 * the selection core and writes the decision onto the call's span (`routelens.*`).
 */
import type { LanguageModelMiddleware } from "ai";
import { type MessageType, routeTurn, type SelectionPipeline } from "@/lib/selection";
import { recordRouteTurn } from "@/lib/telemetry/span-attributes";

export function routelensMiddleware(options: {
  mode: "observe" | "enforce";
  role: string;
  pipeline: SelectionPipeline;
}): LanguageModelMiddleware {
  return {
    // Runs inside the model call, so the active span is the LLM-call span.
    transformParams: async ({ params }) => {
      const tools = params.tools ?? [];
      // The core reads the transcript as { type: "human" | "ai" | "tool" | "system" } messages.
      const types: Record<string, MessageType> = { user: "human", assistant: "ai" };
      const messages = params.prompt.map((message) => ({
        type: types[message.role] ?? (message.role as MessageType),
      }));
      const turn = await routeTurn({
        mode: options.mode,
        pipeline: options.pipeline,
        tools,
        context: { messages },
        // Run and iteration come from the span (trace and start time); these fill the event.
        meta: { runId: "otel", iteration: 0, role: options.role },
      });
      recordRouteTurn(turn);
      return { ...params, tools: [...turn.tools] }; // enforce: the narrowed palette
    },
  };
}
