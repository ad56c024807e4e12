/**
 * demo-support: the customer-support agent of an outdoor-gear web shop (US East). The tenant
 * that rolls out during the demo window: its `action` role starts in observe, where the
 * dashboard shows harmful drops (replacements and store credit missing from the action
 * palette, paraphrased "where is my package" requests missing the tracking keywords); the
 * operators fix the configuration, then switch `action` to enforce.
 */
import type { DemoRouting, TenantProfile } from "./types";

const reasoningPalette = [
  "hydrate_context",
  "search_kb",
  "lookup_customer",
  "lookup_order",
  "track_shipment",
  "get_return_policy",
  "get_product_info",
  "check_stock",
  "get_warranty_status",
  "lookup_loyalty_points",
  "run_fraud_check",
  "get_store_hours",
];

const actionPaletteV1 = [
  "hydrate_context",
  "search_kb",
  "lookup_order",
  "create_return_label",
  "issue_refund",
  "cancel_order",
  "update_shipping_address",
  "apply_coupon",
  "create_ticket",
  "update_ticket",
  "escalate_to_human",
  "add_internal_note",
  "send_email",
  "send_sms",
  "open_warranty_claim",
  "update_subscription",
  "delete_account",
  "export_customer_data",
  "translate_message",
  "summarize_conversation",
];

const reflectionPalette = [
  "hydrate_context",
  "search_kb",
  "sentiment_check",
  "summarize_conversation",
  "add_internal_note",
];

const routingV1: DemoRouting = {
  alwaysInclude: ["hydrate_context", "search_kb"],
  policy: { maxSafetyLevel: "write", budgetUsd: 0.05 },
  roleTools: {
    reasoning: reasoningPalette,
    action: actionPaletteV1,
    reflection: reflectionPalette,
  },
};

/** After reviewing harmful drops: replacements and store credit join the action palette, and
 * tracking learns how customers actually ask. */
const routingV2: DemoRouting = {
  ...routingV1,
  roleTools: {
    ...routingV1.roleTools,
    action: [...actionPaletteV1, "reship_order", "issue_store_credit"],
  },
  extraKeywords: {
    track_shipment: ["package", "parcel", "arrive", "arrived", "came", "received", "where is"],
    reship_order: ["replacement", "new one", "send another"],
  },
};

export const supportProfile: TenantProfile = {
  key: "support",
  tenantId: "demo-support",
  domain: "Customer support",
  agent: "support-agent",
  models: [
    { name: "claude-sonnet-4", weight: 4 },
    { name: "claude-haiku-4", weight: 6 },
  ],
  share: 0.45,
  utcOffsetHours: -5,
  weekendActivity: 0.7,
  turnWeights: [4, 4, 2, 1],
  meanDecisionsPerRun: 6.2,
  tools: [
    {
      name: "hydrate_context",
      category: "context",
      safetyLevel: "read",
      description:
        "Load the signed-in customer's profile, their five most recent orders and any open tickets into the conversation.",
    },
    {
      name: "search_kb",
      category: "knowledge",
      safetyLevel: "read",
      keywords: ["policy", "how do i", "how long", "faq"],
      description:
        "Search the help-centre knowledge base (returns, shipping, warranty, sizing guides, care instructions) and return the three best passages with links.",
    },
    {
      name: "lookup_customer",
      category: "customer",
      safetyLevel: "read",
      description: "Find a customer by email, phone or loyalty number.",
    },
    {
      name: "verify_identity",
      category: "customer",
      safetyLevel: "read",
      costUsd: 0.02,
      keywords: ["verify", "identity"],
      description:
        "Send a one-time code to the customer's email or phone on file and confirm it. Required before any refund, cancellation or account change (company policy SP-12).",
    },
    {
      name: "lookup_order",
      category: "orders",
      safetyLevel: "read",
      description:
        "Fetch an order by number or the customer's recent orders: items, sizes, amounts, payment status, fulfilment status and the carrier's tracking number.",
    },
    {
      name: "track_shipment",
      category: "orders",
      safetyLevel: "read",
      keywords: ["track", "tracking", "shipment", "delivery", "shipped"],
      description:
        "Live carrier status for a tracking number (UPS, FedEx, USPS, Canada Post): last scan, location, expected delivery date and any exception such as an address problem or a damaged parcel.",
    },
    {
      name: "get_return_policy",
      category: "knowledge",
      safetyLevel: "read",
      description: "The return rules that apply to an item: window, condition, who pays shipping.",
    },
    {
      name: "create_return_label",
      category: "returns",
      safetyLevel: "write",
      keywords: ["return", "send back", "label"],
      description: "Create a prepaid return label and email it to the customer.",
    },
    {
      name: "issue_refund",
      category: "payments",
      safetyLevel: "write",
      keywords: ["refund", "money back"],
      description:
        "Refund an order or some of its items to the original payment method. Partial refunds need a reason code. Refunds over $500 are queued for a supervisor.",
    },
    {
      name: "issue_store_credit",
      category: "payments",
      safetyLevel: "write",
      keywords: ["store credit", "credit", "voucher", "gift card"],
      description:
        "Issue store credit (a gift-card code) instead of a refund, optionally with a 10% goodwill bonus.",
    },
    {
      name: "cancel_order",
      category: "orders",
      safetyLevel: "write",
      keywords: ["cancel"],
      description: "Cancel an order that has not shipped yet and release the payment hold.",
    },
    {
      name: "update_shipping_address",
      category: "orders",
      safetyLevel: "write",
      keywords: ["address", "ship to", "moved"],
      description: "Change the shipping address of an order that has not shipped.",
    },
    {
      name: "reship_order",
      category: "orders",
      safetyLevel: "write",
      keywords: ["reship", "resend"],
      description:
        "Ship replacement items for a lost, damaged or wrong delivery at no charge; opens a carrier claim for the original parcel when it was lost in transit.",
    },
    {
      name: "apply_coupon",
      category: "payments",
      safetyLevel: "write",
      keywords: ["coupon", "promo code", "discount code"],
      description: "Apply a coupon to an open order.",
    },
    {
      name: "create_ticket",
      category: "tickets",
      safetyLevel: "write",
      keywords: ["ticket", "complaint"],
      description: "Open a support ticket with a summary, priority and category.",
    },
    {
      name: "update_ticket",
      category: "tickets",
      safetyLevel: "write",
      description: "Add a message to a ticket, or change its status or priority.",
    },
    {
      name: "escalate_to_human",
      category: "tickets",
      safetyLevel: "write",
      keywords: ["manager", "supervisor", "human", "real person", "speak to someone"],
      description:
        "Hand the conversation to a human agent in the right queue (billing, logistics, product) with a summary, so the customer does not have to repeat themselves. Use when the customer asks for a person or the request is outside policy.",
    },
    {
      name: "add_internal_note",
      category: "tickets",
      safetyLevel: "write",
      description: "Add a note to the customer's record that only staff can see.",
    },
    {
      name: "send_email",
      category: "communication",
      safetyLevel: "write",
      keywords: ["email me", "send me an email"],
      description: "Email the customer a message from a template.",
    },
    {
      name: "send_sms",
      category: "communication",
      safetyLevel: "write",
      keywords: ["text me", "sms"],
      description: "Text the customer.",
    },
    {
      name: "get_product_info",
      category: "catalogue",
      safetyLevel: "read",
      keywords: ["size", "sizing", "fit", "material", "waterproof", "run small", "run large"],
      description:
        "Product details from the catalogue: materials, sizing chart, fit notes from reviews, care instructions and compatible accessories.",
    },
    {
      name: "check_stock",
      category: "catalogue",
      safetyLevel: "read",
      keywords: ["in stock", "back in stock", "available", "restock"],
      description: "Stock by size and colour, online and per store, with the next restock date.",
    },
    {
      name: "get_warranty_status",
      category: "warranty",
      safetyLevel: "read",
      keywords: ["warranty", "guarantee"],
      description: "Whether an item is under warranty, and until when.",
    },
    {
      name: "open_warranty_claim",
      category: "warranty",
      safetyLevel: "write",
      keywords: ["warranty claim", "defective", "stopped working"],
      description:
        "Open a warranty claim: records the defect, asks the customer for photos, and pre-authorises a replacement or repair according to the manufacturer's terms.",
    },
    {
      name: "lookup_loyalty_points",
      category: "customer",
      safetyLevel: "read",
      keywords: ["points", "loyalty", "rewards"],
      description: "Loyalty balance, tier and points expiring in the next 90 days.",
    },
    {
      name: "update_subscription",
      category: "customer",
      safetyLevel: "write",
      keywords: ["subscription", "unsubscribe", "newsletter"],
      description: "Change the customer's newsletter and subscription-box settings.",
    },
    {
      name: "delete_account",
      category: "customer",
      safetyLevel: "destructive",
      keywords: ["delete my account", "close my account", "erase"],
      description:
        "Permanently delete the customer's account and personal data (GDPR/CCPA erasure). Irreversible; open orders must be completed or cancelled first.",
    },
    {
      name: "export_customer_data",
      category: "customer",
      safetyLevel: "write",
      keywords: ["my data", "data export", "copy of my data"],
      description: "Prepare a download of everything stored about the customer.",
    },
    {
      name: "translate_message",
      category: "communication",
      safetyLevel: "read",
      description: "Translate a message between English, French and Spanish.",
    },
    {
      name: "summarize_conversation",
      category: "tickets",
      safetyLevel: "read",
      description: "Summarise the conversation so far in three sentences.",
    },
    {
      name: "sentiment_check",
      category: "quality",
      safetyLevel: "read",
      description:
        "Rate the customer's frustration from 1 to 5 from the conversation so far, and flag churn risk.",
    },
    {
      name: "run_fraud_check",
      category: "payments",
      safetyLevel: "read",
      costUsd: 0.12,
      keywords: ["fraud", "chargeback", "stolen card"],
      description:
        "Score an order for fraud risk with the payment processor's model (device, address and velocity signals). Billed per call.",
    },
    {
      name: "get_store_hours",
      category: "knowledge",
      safetyLevel: "read",
      keywords: ["store", "opening hours", "open on"],
      description: "Opening hours of a store.",
    },
  ],
  routing: routingV1,
  modes: { action: "observe", reasoning: "observe", reflection: "enforce" },
  changes: [
    {
      at: 0.45,
      description:
        "Added reship_order and issue_store_credit to the action palette; more tracking keywords",
      routing: routingV2,
    },
    { at: 0.65, description: "Switched the action role to enforce", modes: { action: "enforce" } },
  ],
  workspaces: [
    { name: "us-web", weight: 7 },
    { name: "ca-web", weight: 2 },
    { name: "fr-ca-web", weight: 0.5, unconfiguredRoles: ["reflection"] },
  ],
  scenarios: [
    {
      name: "where is my order",
      weight: 4,
      intent: "action",
      queries: [
        "Where is my order #A1042? It was supposed to arrive Tuesday.",
        "My package never came",
        "Can you track my delivery? Order A88213",
        "I still haven't received my jacket",
        "The tracking hasn't updated in four days",
        "It says delivered but there's no parcel at my door",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"] },
        { role: "reasoning", calls: ["track_shipment"] },
        { role: "action", calls: ["reship_order"], p: 0.12 },
        { role: "reflection", calls: ["sentiment_check"], p: 0.25 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "refund",
      weight: 2.5,
      intent: "action",
      forced: "verify_identity",
      queries: [
        "I want a refund for the boots, they fell apart after a week",
        "Can I get my money back for order A2231?",
        "The zipper broke on day two. Refund please.",
        "I was charged twice, please refund one of them",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"] },
        { role: "reasoning", calls: ["get_return_policy"], p: 0.5 },
        { role: "action", calls: ["issue_refund"] },
        { role: "reflection", calls: ["sentiment_check"], p: 0.3 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "replacement",
      weight: 1.5,
      intent: "action",
      queries: [
        "The tent arrived with a torn pole, can you send a new one?",
        "Please send a replacement, you sent the wrong size",
        "One of the two headlamps in my order is missing",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"] },
        { role: "action", calls: ["reship_order"] },
        { role: "action", calls: ["add_internal_note"], p: 0.3 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "return policy",
      weight: 2,
      intent: "knowledge",
      queries: [
        "What's your return policy for sale items?",
        "How long do I have to return something?",
        "Do you pay for return shipping?",
      ],
      steps: [
        { role: "action", calls: ["search_kb"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "return",
      weight: 1.5,
      intent: "action",
      queries: [
        "I'd like to return the rain jacket, it's too big",
        "How do I send back the sleeping bag?",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"] },
        { role: "action", calls: ["create_return_label"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "cancel",
      weight: 1,
      intent: "action",
      forced: "verify_identity",
      queries: [
        "Cancel my order, I ordered the wrong size",
        "Please cancel A90017 before it ships",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"] },
        { role: "action", calls: ["cancel_order"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "address change",
      weight: 0.8,
      intent: "action",
      queries: [
        "I moved, please ship to 12 Elm Street, Portland instead",
        "Wrong address on my order, can you fix it?",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"] },
        { role: "action", calls: ["update_shipping_address"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "product question",
      weight: 2,
      intent: "action",
      queries: [
        "Does the Trailblazer jacket run small?",
        "Is the 2-person tent back in stock in green?",
        "Is the Summit shell waterproof or just water resistant?",
        "Will these boots fit wide feet?",
      ],
      steps: [
        { role: "reasoning", calls: [], oneOf: [["get_product_info"], ["check_stock"]] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "escalation",
      weight: 0.8,
      intent: "action",
      queries: [
        "This is the third time I'm writing, I want to talk to a manager",
        "Can I speak to someone real please",
        "Get me a human",
      ],
      steps: [
        { role: "reflection", calls: ["sentiment_check"], p: 0.5 },
        { role: "action", calls: ["escalate_to_human"] },
        { role: "action", calls: ["create_ticket"], p: 0.4 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "store credit",
      weight: 0.6,
      intent: "action",
      forced: "verify_identity",
      queries: [
        "Instead of a refund could I get a voucher?",
        "I'd take store credit if that's faster",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"] },
        { role: "action", calls: ["issue_store_credit"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "account deletion",
      weight: 0.3,
      intent: "action",
      forced: "verify_identity",
      queries: ["Please delete my account and all my data", "Close my account, I'm done"],
      steps: [
        { role: "action", calls: ["delete_account"] },
        { role: "action", calls: ["escalate_to_human"], p: 0.5 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "warranty",
      weight: 0.6,
      intent: "action",
      queries: [
        "My headlamp stopped working after 3 months, is it under warranty?",
        "The sole came off my hiking boots, is that covered?",
      ],
      steps: [
        { role: "reasoning", calls: ["lookup_order"], p: 0.6 },
        { role: "reasoning", calls: ["get_warranty_status"] },
        { role: "action", calls: ["open_warranty_claim"], p: 0.6 },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "loyalty",
      weight: 0.5,
      intent: "action",
      queries: ["How many points do I have?", "When do my rewards expire?"],
      steps: [
        { role: "reasoning", calls: ["lookup_customer"] },
        { role: "reasoning", calls: ["lookup_loyalty_points"] },
        { role: "action", calls: [] },
      ],
    },
    {
      name: "follow-up",
      weight: 1.5,
      intent: "ambiguous",
      followUpOnly: true,
      queries: ["ok thanks, and the other one?", "what about my last order?", "hello?"],
      steps: [
        { role: "reasoning", calls: ["lookup_order"], p: 0.6 },
        { role: "action", calls: [] },
      ],
    },
  ],
};
