/**
 * The one-line summary of a call made by an agent that routes nothing. It has its own module,
 * free of the trace's schemas, because the iteration card renders it in the browser too.
 */
import type { IterationView } from "./trace";

/**
 * A call of an agent that routes nothing, in one line: "Offered 5 tools, called search_docs,
 * create_ticket", "Offered 5 tools, called no tool", or "Offered 5 tools; calls not recorded"
 * (the span recorded no output).
 */
export function describeUnroutedCall(view: Pick<IterationView, "offered" | "outcome">): {
  offered: string;
  called: string[] | null;
  text: string;
} {
  const count = view.offered.length;
  const offered = `Offered ${count} ${count === 1 ? "tool" : "tools"}`;
  if (!view.outcome.reported) {
    return { offered, called: null, text: `${offered}; calls not recorded` };
  }
  const called = view.outcome.called.map((tool) => tool.name);
  return {
    offered,
    called,
    text: `${offered}, called ${called.length > 0 ? called.join(", ") : "no tool"}`,
  };
}
