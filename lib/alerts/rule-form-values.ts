/**
 * What the rule form is filled with when a rule is edited. Pure, shared by the rule's page and
 * the form.
 */
import { ALL_TENANTS_VALUE, type AlertChannelKind } from "@/lib/schemas/alerts";

/** A stored rule as the edit form shows it (instants as ISO strings). */
export interface RuleFormValues {
  id?: string | undefined;
  name: string;
  /** A tenant id, or `*` for every tenant. */
  tenant: string;
  role: string;
  mode: string;
  metric: string;
  windowMinutes: number;
  comparison: string;
  threshold: number;
  minSample: number;
  mutedUntil: string | null;
  channels: { id: string | undefined; kind: AlertChannelKind; url: string }[];
}

/** A webhook's signing secret, shown once after the rule is saved. */
export interface NewChannelSecret {
  url: string;
  secret: string;
}

/** A rule as stored (`AlertRuleSummary`) in the edit form's shape. */
export function ruleFormValues(rule: {
  id: string;
  tenant: string | null;
  name: string;
  role: string | null;
  mode: string | null;
  metric: string;
  windowMinutes: number;
  comparison: string;
  threshold: number;
  minSample: number;
  mutedUntil: Date | null;
  channels: readonly { id: string; kind: AlertChannelKind; url: string }[];
}): RuleFormValues {
  return {
    id: rule.id,
    name: rule.name,
    tenant: rule.tenant ?? ALL_TENANTS_VALUE,
    role: rule.role ?? "",
    mode: rule.mode ?? "",
    metric: rule.metric,
    windowMinutes: rule.windowMinutes,
    comparison: rule.comparison,
    threshold: rule.threshold,
    minSample: rule.minSample,
    mutedUntil: rule.mutedUntil?.toISOString() ?? null,
    channels: rule.channels.map((channel) => ({
      id: channel.id,
      kind: channel.kind,
      url: channel.url,
    })),
  };
}
