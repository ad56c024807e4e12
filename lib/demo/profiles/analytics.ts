/**
 * demo-analytics: a data-analysis assistant for a SaaS company's growth and finance teams
 * (London). Uses procedure routing (lazy routing) for scheduled reports, a capability policy
 * (no Python sandbox, no warehouse writes), and forces `describe_dataset` when a user opens a
 * table the agent has not seen. Its sandbox workspace has no reasoning or reflection palette
 * configured, so those palettes come back empty there.
 */
import type { TenantProfile } from "./types";

const weeklyReport = [
  "hydrate_context",
  "run_sql",
  "plot_timeseries",
  "schedule_report",
  "share_to_slack",
  "validate_results",
];

export const analyticsProfile: TenantProfile = {
  key: "analytics",
  tenantId: "demo-analytics",
  domain: "Product analytics",
  agent: "analytics-assistant",
  models: [
    { name: "gpt-4.1", weight: 5 },
    { name: "o4-mini", weight: 3 },
  ],
  share: 0.25,
  utcOffsetHours: 0,
  weekendActivity: 0.2,
  turnWeights: [3, 3, 2, 1],
  meanDecisionsPerRun: 5.4,
  tools: [
    {
      name: "hydrate_context",
      category: "context",
      safetyLevel: "read",
      description:
        "Load the analyst's team, default warehouse schema, metric glossary version and recent queries into the conversation.",
    },
    {
      name: "list_datasets",
      category: "catalog",
      safetyLevel: "read",
      keywords: ["dataset", "datasets", "tables", "which data"],
      description: "List the warehouse tables the analyst can read, with owners and freshness.",
    },
    {
      name: "describe_dataset",
      category: "catalog",
      safetyLevel: "read",
      keywords: ["describe", "schema", "columns", "what's in"],
      description:
        "Columns, types, row count, partitioning and a 20-row sample of a table, plus the data-quality checks that ran on it and when it was last loaded.",
    },
    {
      name: "run_sql",
      category: "query",
      safetyLevel: "read",
      costUsd: 0.003,
      requiredCapability: "warehouse_read",
      description:
        "Run a read-only SQL query on the warehouse (BigQuery dialect) and return up to 10,000 rows. Queries scanning more than 50 GB are refused; add a partition filter on event_date.",
    },
    {
      name: "run_python",
      category: "query",
      safetyLevel: "read",
      requiredCapability: "python_sandbox",
      keywords: ["python", "pandas", "regression", "notebook"],
      description:
        "Run Python (pandas, numpy, statsmodels) in a sandbox with the result of the last query loaded as `df`.",
    },
    {
      name: "plot_timeseries",
      category: "charts",
      safetyLevel: "read",
      keywords: ["plot", "chart", "graph", "over time", "trend", "weekly", "daily"],
      description:
        "Draw a line or area chart of one or more metrics over time from query results, with optional comparison to the previous period.",
    },
    {
      name: "plot_breakdown",
      category: "charts",
      safetyLevel: "read",
      keywords: ["breakdown", "by country", "by plan", "by segment", "split by", "bar chart"],
      description: "Draw a bar or stacked-bar chart of a metric split by a dimension.",
    },
    {
      name: "compute_cohort_retention",
      category: "analysis",
      safetyLevel: "read",
      keywords: ["cohort", "retention", "retained"],
      description:
        "Compute an N-day or N-week retention matrix by signup cohort for an event definition.",
    },
    {
      name: "compute_funnel",
      category: "analysis",
      safetyLevel: "read",
      keywords: ["funnel", "conversion", "drop-off", "step"],
      description:
        "Conversion between ordered events within a window, per step, with median time between steps.",
    },
    {
      name: "detect_anomalies",
      category: "analysis",
      safetyLevel: "read",
      keywords: ["anomaly", "anomalies", "spike", "unusual", "outlier", "dip"],
      description:
        "Flag days where a metric leaves its seasonal band (STL decomposition, 3 median absolute deviations), and list the dimensions that explain most of the deviation.",
    },
    {
      name: "forecast_metric",
      category: "analysis",
      safetyLevel: "read",
      keywords: ["forecast", "predict", "projection", "next quarter"],
      description: "Forecast a daily metric up to 90 days ahead with an 80% interval.",
    },
    {
      name: "get_metric_definition",
      category: "catalog",
      safetyLevel: "read",
      keywords: ["definition", "defined", "define", "mean by", "glossary"],
      description: "The governed definition of a metric from the glossary, with its SQL.",
    },
    {
      name: "search_dashboards",
      category: "catalog",
      safetyLevel: "read",
      keywords: ["dashboard", "existing report", "already have"],
      description: "Find existing dashboards and saved reports by keyword or owner.",
    },
    {
      name: "create_dashboard",
      category: "publishing",
      safetyLevel: "write",
      keywords: ["create a dashboard", "new dashboard"],
      description: "Save the charts of this conversation as a new shared dashboard.",
    },
    {
      name: "schedule_report",
      category: "publishing",
      safetyLevel: "write",
      keywords: ["schedule", "every monday", "every week", "each morning"],
      description:
        "Re-run this analysis on a schedule and deliver it to email or Slack; the schedule owner gets failures.",
    },
    {
      name: "export_csv",
      category: "publishing",
      safetyLevel: "read",
      keywords: ["export", "csv", "download", "spreadsheet"],
      description: "Export query results as CSV and return a link valid for 24 hours.",
    },
    {
      name: "share_to_slack",
      category: "publishing",
      safetyLevel: "write",
      keywords: ["slack", "post it", "share"],
      description: "Post a chart or table to a Slack channel.",
    },
    {
      name: "write_to_warehouse",
      category: "query",
      safetyLevel: "write",
      requiredCapability: "warehouse_write",
      keywords: ["save as a table", "materialize", "write back"],
      description:
        "Materialise query results as a table in the analyst's scratch schema (expires after 30 days).",
    },
    {
      name: "explain_query_plan",
      category: "query",
      safetyLevel: "read",
      keywords: ["slow", "explain", "performance", "takes too long"],
      description: "Show the warehouse's plan and bytes scanned for a query, with tuning hints.",
    },
    {
      name: "validate_results",
      category: "quality",
      safetyLevel: "read",
      description:
        "Sanity-check results: totals against the finance ledger, null and duplicate rates, and whether the time range is complete.",
    },
    {
      name: "annotate_chart",
      category: "charts",
      safetyLevel: "read",
      keywords: ["annotate", "mark", "note on the chart"],
      description: "Add annotations (releases, incidents, campaigns) to a time-series chart.",
    },
  ],
  routing: {
    alwaysInclude: ["hydrate_context"],
    policy: { availableCapabilities: ["warehouse_read"] },
    roleTools: {
      reasoning: [
        "hydrate_context",
        "list_datasets",
        "get_metric_definition",
        "search_dashboards",
        "explain_query_plan",
        "run_sql",
      ],
      action: [
        "hydrate_context",
        "run_sql",
        "run_python",
        "plot_timeseries",
        "plot_breakdown",
        "compute_cohort_retention",
        "compute_funnel",
        "detect_anomalies",
        "forecast_metric",
        "create_dashboard",
        "schedule_report",
        "export_csv",
        "share_to_slack",
        "write_to_warehouse",
        "annotate_chart",
      ],
      reflection: ["hydrate_context", "validate_results", "run_sql", "annotate_chart"],
    },
  },
  modes: { action: "observe", reasoning: "enforce", reflection: "observe" },
  changes: [],
  workspaces: [
    { name: "growth", weight: 5 },
    { name: "finance", weight: 3 },
    { name: "sandbox", weight: 0.4, unconfiguredRoles: ["reasoning", "reflection"] },
  ],
  scenarios: [
    {
      name: "metric trend",
      weight: 3,
      intent: "action",
      queries: [
        "Plot weekly revenue for the last 6 months",
        "How has MRR changed since January?",
        "Show daily active users over time for the mobile app",
        "What did trial starts look like last quarter?",
      ],
      steps: [
        { role: "reasoning", calls: ["get_metric_definition"], p: 0.4 },
        { role: "action", calls: ["run_sql"] },
        { role: "action", calls: ["plot_timeseries"] },
        { role: "reflection", calls: ["validate_results"], p: 0.4 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "anomaly",
      weight: 1.5,
      intent: "action",
      queries: [
        "Why did signups dip on Tuesday?",
        "Is there anything unusual in checkout conversion this week?",
        "We had a spike in refunds yesterday, what happened?",
      ],
      steps: [
        { role: "action", calls: ["detect_anomalies"] },
        { role: "action", calls: ["run_sql"], p: 0.6 },
        { role: "action", calls: ["plot_breakdown"], p: 0.4 },
        { role: "reflection", calls: [], p: 0.3 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "retention",
      weight: 1,
      intent: "action",
      queries: [
        "Show 30-day retention by signup cohort",
        "Are the March cohorts retaining better than February's?",
      ],
      steps: [
        { role: "action", calls: ["compute_cohort_retention"] },
        { role: "action", calls: ["plot_breakdown"], p: 0.5 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "funnel",
      weight: 1,
      intent: "action",
      queries: [
        "What's the conversion from trial to paid by plan?",
        "Where do people drop off in onboarding?",
      ],
      steps: [
        { role: "action", calls: ["compute_funnel"] },
        { role: "action", calls: ["plot_breakdown"], p: 0.6 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "metric definition",
      weight: 1.5,
      intent: "knowledge",
      queries: [
        "What's the definition of an active user?",
        "How do we define churn for annual plans?",
        "Does net revenue include refunds?",
      ],
      steps: [
        { role: "reasoning", calls: ["get_metric_definition"], p: 0.5 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "scheduled report",
      weight: 0.8,
      intent: "action",
      procedure: weeklyReport,
      queries: [
        "Send the weekly revenue report to #finance on Slack every Monday",
        "Schedule the signups chart for each morning at 8",
      ],
      steps: [
        { role: "action", calls: ["run_sql"] },
        { role: "action", calls: ["plot_timeseries"] },
        { role: "action", calls: ["schedule_report"] },
        { role: "action", calls: ["share_to_slack"], p: 0.6 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "new dataset",
      weight: 1,
      intent: "action",
      forced: "describe_dataset",
      queries: [
        "I just got access to billing_events, what can I do with it?",
        "Can you look at the new support_tickets table?",
      ],
      steps: [
        { role: "action", calls: ["run_sql"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "python analysis",
      weight: 0.5,
      intent: "action",
      queries: [
        "Fit a regression of churn on plan price using pandas",
        "Run a quick python notebook to cluster accounts by usage",
      ],
      steps: [
        { role: "action", calls: ["run_sql"] },
        { role: "action", calls: ["run_python"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "export",
      weight: 0.7,
      intent: "action",
      queries: [
        "Export last month's orders by country as CSV",
        "Give me a download of all enterprise accounts and their seats",
      ],
      steps: [
        { role: "action", calls: ["run_sql"] },
        { role: "action", calls: ["export_csv"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "slow query",
      weight: 0.4,
      intent: "action",
      queries: ["This dashboard query takes 40 seconds, why is it so slow?"],
      steps: [
        { role: "reasoning", calls: ["explain_query_plan"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "follow-up",
      weight: 1.5,
      intent: "ambiguous",
      followUpOnly: true,
      queries: ["and for Europe?", "same but by plan", "can you make it monthly instead"],
      steps: [
        { role: "action", calls: ["run_sql"] },
        { role: "action", calls: ["plot_breakdown"], p: 0.5 },
        { role: "action", calls: [] },
      ],
    },
  ],
};
