import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DeleteRuleButton } from "@/components/alerts/delete-rule-button";
import { MuteForm } from "@/components/alerts/mute-form";
import { RuleForm } from "@/components/alerts/rule-form";
import { DeliveriesTable, TransitionsTable } from "@/components/alerts/rule-history";
import { RuleState } from "@/components/alerts/rule-state";
import { SendTestButton } from "@/components/alerts/send-test-button";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { prepareDeliveryRows, prepareTransitionRows } from "@/lib/alerts/history-view";
import { METRICS } from "@/lib/alerts/metrics";
import { deleteAlertRuleFromPage } from "@/lib/alerts/page-actions";
import { ruleFormValues } from "@/lib/alerts/rule-form-values";
import { isAlertMetric, prepareRuleView } from "@/lib/alerts/rule-view";
import { canMaintain, requireViewer, scopeOf } from "@/lib/auth/access";
import { muteAlertRule, sendAlertTest } from "@/lib/auth/alert-actions";
import { getRule, ruleDeliveries, ruleHistory } from "@/lib/db/queries/alerts";
import { alertRuleIdSchema } from "@/lib/schemas/alerts";

export const metadata: Metadata = { title: "Alert rule" };

/**
 * One alert rule: its state and last value, its channels (with a test message each), mute,
 * edit and delete for those who maintain its tenant, and its history of firings, resolutions
 * and deliveries. A rule outside the viewer's tenants is answered as if it did not exist.
 */
export default async function AlertRulePage({ params }: { params: Promise<{ ruleId: string }> }) {
  const { ruleId } = await params;
  const id = alertRuleIdSchema.safeParse(ruleId);
  if (!id.success) notFound();
  const viewer = await requireViewer();
  const scope = scopeOf(viewer);
  const rule = await getRule(scope, id.data);
  if (!rule) notFound();
  const now = new Date();
  const canChange = rule.tenant === null ? viewer.isAdmin : canMaintain(viewer, rule.tenant);
  const [events, deliveries] = await Promise.all([
    ruleHistory(scope, rule.id, 100),
    ruleDeliveries(scope, rule.id, 50),
  ]);
  const view = prepareRuleView(rule, now);
  const sampleLabel = isAlertMetric(rule.metric) ? METRICS[rule.metric].sampleLabel : "events";

  return (
    <>
      <PageHeader
        title={rule.name}
        subtitle={
          <>
            <Link href="/alerts">Alerts</Link> · {view.tenantLabel}
            {rule.role ? ` · role ${rule.role}` : ""}
            {rule.mode ? ` · ${rule.mode}` : ""}
          </>
        }
        actions={<RuleState state={view.state} />}
      />
      <section className="panel" aria-label="Rule">
        <dl className="meta-grid">
          <div>
            <dt>Fires when</dt>
            <dd>
              {view.metricLabel} {view.condition}
            </dd>
          </div>
          <div>
            <dt>Last value</dt>
            <dd data-testid="rule-last-value">
              {view.lastValue}
              {view.evaluatedAt ? (
                <span className="muted small">
                  {" "}
                  (minute of <LocalTime iso={view.evaluatedAt} style="short" />)
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Runs</dt>
            <dd>
              <Link href={view.runsHref}>Runs in the rule's window</Link>
            </dd>
          </div>
        </dl>
        {canChange ? null : (
          <p className="small muted" data-testid="rule-read-only">
            You read this rule as a viewer: its tenant's maintainers and admins change it.
          </p>
        )}
      </section>

      <section className="panel" aria-labelledby="channels-title">
        <h2 id="channels-title">Channels</h2>
        {rule.channels.length === 0 ? (
          <p className="muted">No channel: transitions are recorded here only.</p>
        ) : (
          <ul className="plain-list">
            {rule.channels.map((channel) => (
              <li key={channel.id} className="channel-line">
                <span>
                  {channel.kind === "slack" ? "Slack" : "Webhook"}{" "}
                  <span className="mono small break">{channel.url}</span>
                  {channel.kind === "webhook" ? (
                    <span className="muted small"> (signed)</span>
                  ) : null}
                </span>
                {canChange ? (
                  <SendTestButton
                    ruleId={rule.id}
                    channelId={channel.id}
                    label={`${channel.kind} ${channel.url}`}
                    action={sendAlertTest}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      {canChange ? (
        <>
          <section className="panel" aria-labelledby="mute-title">
            <h2 id="mute-title">Mute</h2>
            <MuteForm
              ruleId={rule.id}
              ruleName={rule.name}
              mutedUntil={view.state.mutedUntil}
              action={muteAlertRule}
            />
          </section>
          <details className="panel" data-testid="edit-rule">
            <summary>Edit the rule</summary>
            <RuleForm
              tenants={[]}
              allowAllTenants={viewer.isAdmin}
              initial={ruleFormValues(rule)}
            />
          </details>
        </>
      ) : null}

      <section aria-labelledby="history-title">
        <div className="section-head">
          <h2 id="history-title">Firings and resolutions</h2>
        </div>
        <TransitionsTable rows={prepareTransitionRows(rule.metric, sampleLabel, events)} />
      </section>
      <section aria-labelledby="deliveries-title">
        <div className="section-head">
          <h2 id="deliveries-title">Deliveries</h2>
        </div>
        <DeliveriesTable rows={prepareDeliveryRows(deliveries)} />
      </section>

      {canChange ? (
        <section className="panel" aria-labelledby="delete-title">
          <h2 id="delete-title">Delete</h2>
          <DeleteRuleButton
            ruleId={rule.id}
            ruleName={rule.name}
            action={deleteAlertRuleFromPage}
          />
        </section>
      ) : null}
    </>
  );
}
