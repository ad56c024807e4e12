/**
 * demo-pricing: a pricing copilot for a B2B office-supplies retailer (Berlin). Mostly in
 * enforce already; reflection is still observed. Its policy ceiling keeps destructive
 * repricing tools away from the model, and bulk changes force an approval request.
 */
import type { TenantProfile } from "./types";

export const pricingProfile: TenantProfile = {
  key: "pricing",
  tenantId: "demo-pricing",
  domain: "Pricing",
  agent: "pricing-copilot",
  models: [
    { name: "gpt-4.1", weight: 3 },
    { name: "gpt-4.1-mini", weight: 5 },
  ],
  share: 0.3,
  utcOffsetHours: 1,
  weekendActivity: 0.3,
  turnWeights: [5, 3, 1.5, 0.5],
  meanDecisionsPerRun: 4,
  tools: [
    {
      name: "hydrate_context",
      category: "context",
      safetyLevel: "read",
      description:
        "Load the merchant account, the active catalogue, the default currency and the analyst's saved preferences into the conversation.",
    },
    {
      name: "search_products",
      category: "catalogue",
      safetyLevel: "read",
      description:
        "Full-text search over the product catalogue by name, brand, category or attribute. Returns SKU, title, current list price, cost and stock status for up to 50 matches.",
    },
    {
      name: "get_product",
      category: "catalogue",
      safetyLevel: "read",
      description: "Fetch one product by SKU with its full price ladder.",
    },
    {
      name: "get_price_history",
      category: "analysis",
      safetyLevel: "read",
      keywords: ["history", "trend", "last year", "last quarter", "past"],
      description:
        "Daily list and net prices of a SKU or category over a date range, with every manual change, promotion and automated rule that moved the price annotated with who or what made it. Use it to explain why a price is what it is today.",
    },
    {
      name: "get_competitor_prices",
      category: "market",
      safetyLevel: "read",
      costUsd: 0.01,
      keywords: ["competitor", "competitors", "competition", "market price", "rival"],
      description:
        "Latest scraped shelf prices for matching products at tracked competitors (Staples, Viking, Amazon Business, Otto Office), with scrape time, shipping cost and availability. Matching is by GTIN first, then by fuzzy title match with a confidence score; low-confidence matches are flagged and should be double-checked before acting on them.",
    },
    {
      name: "get_margin_report",
      category: "analysis",
      safetyLevel: "read",
      keywords: ["margin", "margins", "profit", "cost"],
      description:
        "Gross margin by SKU, category or supplier for a period, net of promotions and rebates.",
    },
    {
      name: "get_inventory_levels",
      category: "catalogue",
      safetyLevel: "read",
      keywords: ["stock", "inventory", "warehouse"],
      description: "On-hand and inbound stock per warehouse, with weeks of cover at current sales.",
    },
    {
      name: "forecast_demand",
      category: "analysis",
      safetyLevel: "read",
      costUsd: 0.004,
      keywords: ["forecast", "demand", "predict", "expect"],
      description:
        "Forecast weekly unit demand for a SKU or category for the next 12 weeks, given a price path. Uses the seasonal model retrained every Sunday; reports an 80% interval.",
    },
    {
      name: "simulate_price_change",
      category: "analysis",
      safetyLevel: "read",
      keywords: ["simulate", "what if", "elasticity", "impact"],
      description:
        "Estimate units, revenue and margin for a proposed price using the category's price elasticity. Read-only: nothing is changed.",
    },
    {
      name: "propose_price",
      category: "pricing",
      safetyLevel: "read",
      keywords: ["propose", "recommend", "suggest", "optimal"],
      description:
        "Recommend a price for a SKU within its floor and ceiling, balancing margin target, competitor position and stock cover. Returns the recommendation and its reasoning.",
    },
    {
      name: "set_price",
      category: "pricing",
      safetyLevel: "write",
      keywords: ["set the price", "change the price", "reprice", "drop the", "raise the"],
      description: "Set the list price of one SKU, effective immediately.",
    },
    {
      name: "schedule_price_change",
      category: "pricing",
      safetyLevel: "write",
      keywords: ["schedule", "from monday", "next week", "effective"],
      description:
        "Schedule a list-price change for one or more SKUs at a future date and time (merchant's time zone). Scheduled changes can be reviewed and cancelled until they take effect.",
    },
    {
      name: "create_promotion",
      category: "promotions",
      safetyLevel: "write",
      keywords: ["promotion", "promo", "discount", "sale", "coupon"],
      description:
        "Create a time-boxed promotion (percentage or fixed discount) on SKUs or a category, with an optional customer segment and budget cap.",
    },
    {
      name: "end_promotion",
      category: "promotions",
      safetyLevel: "write",
      keywords: ["end the promotion", "stop the sale"],
      description: "End a running promotion now.",
    },
    {
      name: "apply_bulk_price_update",
      category: "pricing",
      safetyLevel: "destructive",
      keywords: ["all prices", "bulk", "across the board", "every product"],
      description:
        "Apply a percentage or absolute change to every SKU matching a filter in one transaction. Overwrites current list prices; the previous prices are kept for 30 days for rollback.",
    },
    {
      name: "delete_price_rule",
      category: "rules",
      safetyLevel: "destructive",
      keywords: ["delete the rule", "remove the rule"],
      description: "Delete an automated pricing rule.",
    },
    {
      name: "list_price_rules",
      category: "rules",
      safetyLevel: "read",
      keywords: ["rule", "rules", "automation"],
      description:
        "List the automated pricing rules (match competitor, keep margin floor, round to .99) that apply to a SKU or category, in evaluation order.",
    },
    {
      name: "check_price_policy",
      category: "compliance",
      safetyLevel: "read",
      keywords: ["policy", "map", "minimum advertised", "compliance", "allowed"],
      description:
        "Check a proposed price against minimum advertised price (MAP) agreements, price-floor rules and the EU Omnibus 30-day lowest-price requirement. Returns pass or the rules it breaks.",
    },
    {
      name: "get_currency_rates",
      category: "market",
      safetyLevel: "read",
      keywords: ["currency", "exchange rate", "euros", "pounds", "francs"],
      description: "Today's ECB reference rates.",
    },
    {
      name: "export_price_sheet",
      category: "reporting",
      safetyLevel: "read",
      keywords: ["export", "csv", "spreadsheet", "excel", "price list"],
      description:
        "Export prices, costs and margins for a filter as a CSV or XLSX file and return a download link valid for 24 hours.",
    },
    {
      name: "notify_account_manager",
      category: "communication",
      safetyLevel: "write",
      keywords: ["notify", "tell", "let know", "email"],
      description: "Send a short message to the account manager of a key account.",
    },
    {
      name: "request_approval",
      category: "compliance",
      safetyLevel: "write",
      keywords: ["approval", "approve", "sign off"],
      description:
        "Open an approval request for price changes above the analyst's authority (more than 10% or more than 200 SKUs). The change waits until a pricing lead approves it in the back office.",
    },
    {
      name: "lookup_contract_terms",
      category: "compliance",
      safetyLevel: "read",
      keywords: ["contract", "terms", "agreement", "supplier"],
      description:
        "Look up supplier contract terms that constrain pricing: MAP clauses, rebates, price-protection periods.",
    },
    {
      name: "summarize_findings",
      category: "reporting",
      safetyLevel: "read",
      description: "Summarise the analysis so far as bullet points for the analyst.",
    },
  ],
  routing: {
    alwaysInclude: ["hydrate_context"],
    policy: { maxSafetyLevel: "write" },
    roleTools: {
      reasoning: [
        "hydrate_context",
        "search_products",
        "get_product",
        "get_price_history",
        "get_competitor_prices",
        "get_margin_report",
        "get_inventory_levels",
        "forecast_demand",
        "simulate_price_change",
        "list_price_rules",
        "check_price_policy",
        "get_currency_rates",
        "lookup_contract_terms",
      ],
      action: [
        "hydrate_context",
        "search_products",
        "get_product",
        "propose_price",
        "set_price",
        "schedule_price_change",
        "create_promotion",
        "end_promotion",
        "apply_bulk_price_update",
        "delete_price_rule",
        "export_price_sheet",
        "notify_account_manager",
        "summarize_findings",
        "request_approval",
      ],
      reflection: [
        "hydrate_context",
        "check_price_policy",
        "simulate_price_change",
        "get_margin_report",
        "summarize_findings",
      ],
    },
  },
  modes: { action: "enforce", reasoning: "enforce", reflection: "observe" },
  changes: [],
  workspaces: [
    { name: "de-b2b", weight: 6 },
    { name: "at-b2b", weight: 2 },
    { name: "ch-b2b", weight: 0.5, unconfiguredRoles: ["reflection"] },
  ],
  scenarios: [
    {
      name: "competitor comparison",
      weight: 3,
      intent: "action",
      queries: [
        "How do our prices on the Aeron chair compare to competitors?",
        "Are we more expensive than Staples on ergonomic office chairs?",
        "Check the market price for the Leitz 180 lever arch file",
        "Where do we stand against Viking on printer paper?",
      ],
      steps: [
        { role: "reasoning", calls: ["search_products"] },
        { role: "reasoning", calls: ["get_competitor_prices"] },
        { role: "reasoning", calls: ["get_margin_report"], p: 0.4 },
        { role: "action", calls: ["propose_price"], p: 0.3 },
        { role: "reflection", calls: [], p: 0.3 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "single price change",
      weight: 2,
      intent: "action",
      forced: "check_price_policy",
      queries: [
        "Set the price of SKU 88123 to 49.90 from Monday",
        "Drop the desk lamp to 24 euros",
        "Raise the price of the A4 copy paper 5-pack by 3%",
        "Reprice SKU 10442 to match Amazon Business",
      ],
      steps: [
        { role: "reasoning", calls: ["get_product"] },
        { role: "reasoning", calls: ["get_margin_report"], p: 0.6 },
        { role: "action", calls: [], oneOf: [["set_price"], ["schedule_price_change"]] },
        { role: "reflection", calls: ["check_price_policy"], p: 0.4 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "promotion",
      weight: 2,
      intent: "action",
      queries: [
        "Create a 15% discount on garden furniture for the spring sale",
        "Run a promo on toner cartridges for the last week of the month",
        "Set up a back-to-school sale on backpacks and pencil cases",
      ],
      steps: [
        { role: "reasoning", calls: ["forecast_demand"], p: 0.7 },
        { role: "reasoning", calls: ["get_inventory_levels"], p: 0.4 },
        { role: "action", calls: ["create_promotion"] },
        { role: "action", calls: ["notify_account_manager"], p: 0.25 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "margin review",
      weight: 2,
      intent: "action",
      queries: [
        "Which products lost margin last month?",
        "Show me the categories where profit fell this quarter",
        "Why is the margin on shredders so low?",
      ],
      steps: [
        { role: "reasoning", calls: ["get_margin_report"] },
        { role: "reasoning", calls: ["get_price_history"], p: 0.5 },
        { role: "action", calls: ["export_price_sheet"], p: 0.3 },
        { role: "action", calls: ["summarize_findings"], p: 0.4 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "policy question",
      weight: 1.5,
      intent: "knowledge",
      queries: [
        "What is our MAP policy for Herman Miller?",
        "Can we go below the minimum advertised price on Fellowes products?",
        "How long does the Omnibus rule make us show the lowest price?",
      ],
      steps: [
        { role: "action", calls: ["lookup_contract_terms"], p: 0.4 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "bulk repricing",
      weight: 0.7,
      intent: "action",
      forced: "request_approval",
      queries: [
        "Raise all prices on printer ink by 4% to match the new supplier costs",
        "Bulk update every product from Leitz by +2.5%",
        "Lower prices across the board on archiving supplies by 5%",
      ],
      steps: [
        { role: "reasoning", calls: ["list_price_rules"] },
        { role: "reasoning", calls: ["simulate_price_change"], p: 0.5 },
        { role: "action", calls: ["apply_bulk_price_update"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "price history",
      weight: 1,
      intent: "ambiguous",
      followUpOnly: true,
      queries: ["hmm, and what about last quarter?", "ok and before that?", "why?"],
      steps: [
        { role: "reasoning", calls: ["get_price_history"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "currency conversion",
      weight: 0.8,
      intent: "action",
      queries: [
        "Convert the Swiss price list to francs at today's exchange rate",
        "What would our top 20 SKUs cost in pounds?",
      ],
      steps: [
        { role: "reasoning", calls: ["get_currency_rates"] },
        { role: "action", calls: ["export_price_sheet"], p: 0.6 },
        { role: "action", calls: [] },
      ],
    },
  ],
};
