import type { RuleStateView } from "@/lib/alerts/rule-view";
import { LocalTime } from "../ui/local-time";

/** A rule's state: firing since …, ok since …, or not evaluated yet; and muted until …. */
export function RuleState({ state }: { state: RuleStateView }) {
  return (
    <span className="badges" data-testid="rule-state" data-state={state.key}>
      {state.key === "firing" ? (
        <span className="badge badge-error">
          firing
          {state.since ? (
            <>
              {" "}
              since <LocalTime iso={state.since} style="short" />
            </>
          ) : null}
        </span>
      ) : state.key === "ok" ? (
        <span className="badge badge-ok">
          ok
          {state.since ? (
            <>
              {" "}
              since <LocalTime iso={state.since} style="short" />
            </>
          ) : null}
        </span>
      ) : (
        <span className="badge">not evaluated yet</span>
      )}
      {state.mutedUntil ? (
        <span className="badge badge-warn" data-testid="rule-muted">
          muted until <LocalTime iso={state.mutedUntil} style="short" />
        </span>
      ) : null}
    </span>
  );
}
