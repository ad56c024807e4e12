import type { WaterfallStep } from "@/lib/dashboard/trace";

/**
 * Palette size after each stage, as horizontal bars: offered → each stage → selected.
 * Plain markup (no chart library), so it renders on the server and prints.
 */
export function StageWaterfall({ steps }: { steps: WaterfallStep[] }) {
  const max = Math.max(1, ...steps.map((step) => step.size));
  return (
    <ol className="waterfall" aria-label="Palette size after each stage">
      {steps.map((step, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: stages may repeat a name; order is identity.
          key={index}
          className={`waterfall-step waterfall-${step.kind}${step.action === "error" ? " is-error" : ""}`}
        >
          <span className="waterfall-label">
            {step.label}
            {step.action && step.action !== "select" ? (
              <span className="muted"> ({step.action})</span>
            ) : null}
          </span>
          <span className="waterfall-bar-track" aria-hidden="true">
            <span className="waterfall-bar" style={{ width: `${(step.size / max) * 100}%` }} />
          </span>
          <span className="waterfall-size num">
            {step.size}
            {step.kind !== "offered" && step.delta !== 0 ? (
              <span className={step.delta < 0 ? "delta-down" : "delta-up"}>
                {" "}
                ({step.delta > 0 ? "+" : "−"}
                {Math.abs(step.delta)})
              </span>
            ) : null}
          </span>
        </li>
      ))}
    </ol>
  );
}
