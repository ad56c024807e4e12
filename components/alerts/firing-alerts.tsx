import Link from "next/link";
import type { RuleView } from "@/lib/alerts/rule-view";
import { RuleState } from "./rule-state";

/**
 * The overview's firing alerts, above everything else: each rule with its value, a link to
 * the rule and one to the runs it is about. Nothing is shown while no rule fires.
 */
export function FiringAlerts({ rules }: { rules: readonly RuleView[] }) {
  if (rules.length === 0) return null;
  return (
    <section
      className="panel firing-alerts"
      aria-labelledby="firing-alerts-title"
      data-testid="firing-alerts"
    >
      <h2 id="firing-alerts-title">
        {rules.length === 1 ? "1 alert firing" : `${rules.length} alerts firing`}
      </h2>
      <ul className="plain-list">
        {rules.map((rule) => (
          <li key={rule.id} className="firing-alert">
            <Link href={rule.href}>
              <strong>{rule.name}</strong>
            </Link>{" "}
            <span className="muted">
              {rule.tenantLabel}
              {rule.role ? ` · ${rule.role}` : ""}
              {rule.mode ? ` · ${rule.mode}` : ""}
            </span>{" "}
            <RuleState state={rule.state} />
            <div className="small">
              {rule.metricLabel} {rule.condition}; now {rule.lastValue}.{" "}
              <Link href={rule.runsHref}>Runs in the window</Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
