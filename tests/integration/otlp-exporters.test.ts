/**
 * OpenTelemetry ingest with the real exporters (SPEC §8): a Vercel AI SDK agent (mock model,
 * five tools, three steps) is traced by the real SDK and exported by the real OTLP exporters
 * to the running server, as protobuf and JSON, plain and gzipped. What is stored is read back
 * from PostgreSQL: one run, three LLM calls offering five tools each, the two tool calls in
 * order, the tool runs joined to the calls that asked for them. Also: re-exports, exports
 * split and reversed, a wrong key, the environment-variable set-up, the README's examples, and
 * a routed agent whose `routelens.*` attributes are stored as `/api/ingest` would store them.
 */
import { readFileSync } from "node:fs";
import { OTLPTraceExporter as OtlpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { generateText, type LanguageModelMiddleware, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { startRoutelensTracing } from "@/examples/otel/ai-sdk-tracing";
import { routelensMiddleware } from "@/examples/otel/routed-agent";
import { DECISIONS_WITH_OUTCOMES } from "@/lib/ingest/decision-outcomes";
import { offeredOf, selectedOf } from "@/lib/ingest/palettes";
import { createApiKey } from "@/lib/keys";
import { joinToolRuns } from "@/lib/otlp/join-tool-runs";
import type { TelemetryEvent } from "@/lib/schemas/events";
import {
  defaultPipeline,
  type MessageType,
  routeTurn,
  type SelectionPipeline,
  ToolCatalog,
} from "@/lib/selection";
import { outcomeFor } from "@/lib/telemetry/events";
import { postBatch } from "../support/http";
import {
  AGENT_CALLS,
  AGENT_TOOLS,
  type AgentRun,
  type ExportTarget,
  exportSpans,
  modelLatency,
  runAgent,
  type SpanFamily,
} from "../support/otel-agent";
import { deleteTenantRows } from "../support/tenant-rows";

const baseUrl = inject("baseUrl");
const tracesUrl = `${baseUrl}/api/otlp/v1/traces`;
const stamp = Date.now();
const tenant = `otlp-exp-${stamp}`;
const ingestTenant = `otlp-exp-ingest-${stamp}`;
let db: pg.Client;
let key: string;
let ingestKey: string;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  key = (await createApiKey(tenant)).key;
  ingestKey = (await createApiKey(ingestTenant)).key;
});

afterAll(async () => {
  for (const name of [tenant, ingestTenant]) await deleteTenantRows(db, name);
  await db.end();
});

function target(encoding: "protobuf" | "json", gzip = false): ExportTarget {
  return { url: tracesUrl, apiKey: key, encoding, gzip };
}

const isLlmCall = (span: ReadableSpan) =>
  span.name.startsWith("chat ") || span.name === "ai.generateText.doGenerate";

/** The run's LLM-call spans in the order Routelens numbers them: (start time, span id). */
function llmCallSpans(run: AgentRun): ReadableSpan[] {
  const startNs = (span: ReadableSpan) =>
    BigInt(span.startTime[0]) * 1_000_000_000n + BigInt(span.startTime[1]);
  return run.spans.filter(isLlmCall).sort((a, b) => {
    const delta = startNs(a) - startNs(b);
    if (delta !== 0n) return delta < 0n ? -1 : 1;
    return a.spanContext().spanId < b.spanContext().spanId ? -1 : 1;
  });
}

interface StoredDecision {
  event_id: string;
  mode: string;
  role: string;
  iteration: number;
  offered: string[];
  selected: string[];
  called: string[];
  has_outcome: boolean;
}

/** What is stored for a run: its decisions in iteration order, and each tool run's call. */
async function storedRun(runId: string, tenantId = tenant) {
  const decisions = await db.query<StoredDecision>(
    `SELECT event_id, mode, role, iteration, ${offeredOf("decisions")} AS offered, ${selectedOf("decisions")} AS selected, called, has_outcome
       FROM ${DECISIONS_WITH_OUTCOMES} AS decisions WHERE tenant_id = $1 AND run_id = $2 ORDER BY iteration`,
    [tenantId, runId],
  );
  const spans = await db.query<{
    trace_id: string;
    span_id: string;
    kind: string;
    tool: string | null;
    call_id: string | null;
    call_ids: string[] | null;
    start_ns: string;
  }>(
    `SELECT trace_id, span_id, kind, tool, call_id, call_ids, start_ns::text
       FROM otel_spans WHERE tenant_id = $1 AND run_id = $2`,
    [tenantId, runId],
  );
  const calls = spans.rows
    .filter((row) => row.kind === "llm_call")
    .map((row) => ({
      traceId: row.trace_id,
      spanId: row.span_id,
      startNs: BigInt(row.start_ns),
      callIds: row.call_ids ?? [],
    }));
  const toolRuns = spans.rows
    .filter((row) => row.kind === "tool_run")
    .map((row) => ({
      traceId: row.trace_id,
      spanId: row.span_id,
      startNs: BigInt(row.start_ns),
      callId: row.call_id,
      tool: row.tool,
    }));
  const iterationOf = new Map(
    decisions.rows.map((row) => [row.event_id.split(":")[2] as string, row.iteration]),
  );
  const joined = joinToolRuns(calls, toolRuns)
    .map(({ toolRun, call, joinedBy }) => ({
      tool: toolRun.tool,
      callIteration: call ? (iterationOf.get(call.spanId) ?? null) : null,
      joinedBy,
    }))
    .sort((a, b) => (a.callIteration ?? -1) - (b.callIteration ?? -1));
  return { decisions: decisions.rows, joined, spanRows: spans.rows.length };
}

/** What every export of the agent must leave: SPEC §8's mapping of the three-step run. */
async function expectAgentRunStored(run: AgentRun, role: string) {
  const stored = await storedRun(run.traceId);
  const callSpans = llmCallSpans(run);
  expect(stored.decisions).toEqual(
    callSpans.map((span, iteration) => ({
      event_id: `otel:${run.traceId}:${span.spanContext().spanId}`,
      mode: "off",
      role,
      iteration,
      offered: [...AGENT_TOOLS],
      selected: [...AGENT_TOOLS],
      called: iteration < AGENT_CALLS.length ? [AGENT_CALLS[iteration]] : [],
      has_outcome: true,
    })),
  );
  expect(stored.joined).toEqual([
    { tool: "search_orders", callIteration: 0, joinedBy: "call_id" },
    { tool: "refund_order", callIteration: 1, joinedBy: "call_id" },
  ]);
  return stored;
}

async function countsOf(tenantId: string) {
  const { rows } = await db.query<{ decisions: number; outcomes: number; spans: number }>(
    `SELECT (SELECT count(*)::int FROM decisions WHERE tenant_id = $1) AS decisions,
            (SELECT count(*)::int FROM outcomes WHERE tenant_id = $1) AS outcomes,
            (SELECT count(*)::int FROM otel_spans WHERE tenant_id = $1) AS spans`,
    [tenantId],
  );
  return rows[0];
}

const VARIANTS: {
  encoding: "protobuf" | "json";
  gzip: boolean;
  family: SpanFamily;
  sdk: 6 | 7;
}[] = [
  { encoding: "protobuf", gzip: false, family: "genai", sdk: 7 },
  { encoding: "json", gzip: false, family: "ai", sdk: 7 },
  { encoding: "protobuf", gzip: true, family: "ai", sdk: 7 },
  { encoding: "json", gzip: true, family: "genai", sdk: 7 },
  // AI SDK 6: ai.* spans from experimental_telemetry, tool runs siblings of their calls.
  { encoding: "protobuf", gzip: false, family: "ai", sdk: 6 },
];

describe("the real OTLP exporters deliver an AI SDK agent's run", () => {
  for (const { encoding, gzip, family, sdk } of VARIANTS) {
    it(`AI SDK ${sdk}, ${encoding}${gzip ? " gzipped" : ""}, ${family === "genai" ? "GenAI conventions" : "ai.* attributes"}: 3 LLM calls offering 5 tools, 2 calls in order, tool runs joined`, async () => {
      const run = await runAgent({ family, sdk });
      expect(run.text).toBe("Order O-1042 has been refunded.");

      const outcome = await exportSpans(run.spans, target(encoding, gzip));
      expect(outcome.error).toBeUndefined();
      expect(outcome.code).toBe(0);

      // GenAI `chat` spans carry no agent name, so the role is the resource's service.name;
      // ai.* spans carry the functionId.
      await expectAgentRunStored(
        run,
        family === "genai" ? "routelens-test-agent" : "support-agent",
      );
    });
  }

  it("stores nothing new when the same spans are exported again, in either encoding", async () => {
    const run = await runAgent({ family: "genai" });
    expect((await exportSpans(run.spans, target("protobuf"))).code).toBe(0);
    const before = await countsOf(tenant);
    const first = await storedRun(run.traceId);

    expect((await exportSpans(run.spans, target("protobuf"))).code).toBe(0);
    expect((await exportSpans(run.spans, target("json", true))).code).toBe(0);

    expect(await countsOf(tenant)).toEqual(before);
    expect(await storedRun(run.traceId)).toEqual(first);
  });

  it("gives the same result when a run's spans arrive in two exports, the later half first", async () => {
    for (const family of ["genai", "ai"] as const) {
      const run = await runAgent({ family });
      // Spans in the order they ended; the second half holds the last LLM call and the agent
      // span, the first half the earlier calls and their tool runs.
      const middle = Math.ceil(run.spans.length / 2);
      const later = run.spans.slice(middle);
      const earlier = run.spans.slice(0, middle);
      expect(later.some(isLlmCall) && earlier.some(isLlmCall)).toBe(true);

      expect((await exportSpans(later, target("protobuf"))).code).toBe(0);
      expect((await exportSpans(earlier, target("json"))).code).toBe(0);

      await expectAgentRunStored(
        run,
        family === "genai" ? "routelens-test-agent" : "support-agent",
      );
    }
  });

  it("a tool run that arrives before the LLM call that asked for it is joined once the call arrives", async () => {
    const run = await runAgent({ family: "genai" });
    const toolRuns = run.spans.filter((span) => span.name.startsWith("execute_tool"));
    const rest = run.spans.filter((span) => !span.name.startsWith("execute_tool"));
    expect(toolRuns).toHaveLength(2);

    expect((await exportSpans(toolRuns, target("protobuf"))).code).toBe(0);
    expect((await exportSpans(rest, target("protobuf", true))).code).toBe(0);

    await expectAgentRunStored(run, "routelens-test-agent");
  });

  it("answers a wrong key with 401 and stores nothing", async () => {
    const run = await runAgent({ family: "genai" });
    const before = await countsOf(tenant);
    for (const encoding of ["protobuf", "json"] as const) {
      const outcome = await exportSpans(run.spans, {
        ...target(encoding),
        apiKey: "rl_not-a-real-key",
      });
      expect(outcome.code).toBe(1);
      expect((outcome.error as { code?: number } | undefined)?.code).toBe(401);
    }
    expect(await countsOf(tenant)).toEqual(before);
    expect((await storedRun(run.traceId)).decisions).toEqual([]);
  });

  it("counts LLM calls without a tool list (recordInputs: false) instead of storing decisions", async () => {
    const run = await runAgent({
      family: "ai",
      recordInputs: false,
      functionId: `no-inputs-${stamp}`,
    });
    expect((await exportSpans(run.spans, target("protobuf"))).code).toBe(0);

    expect((await storedRun(run.traceId)).decisions).toEqual([]);
    const { rows } = await db.query<{ calls: number }>(
      `SELECT COALESCE(sum(calls_without_tools), 0)::int AS calls
         FROM otel_call_rollup_hour WHERE tenant_id = $1 AND role = $2`,
      [tenant, `no-inputs-${stamp}`],
    );
    expect(rows[0]?.calls).toBe(3);
  });
});

describe("the README's set-ups", () => {
  it("shows examples/otel/*.ts exactly", () => {
    const readme = readFileSync("README.md", "utf8");
    for (const file of ["examples/otel/ai-sdk-tracing.ts", "examples/otel/routed-agent.ts"]) {
      const code = readFileSync(file, "utf8");
      // The file's code below its header comment is in the README as one block.
      const body = code.slice(code.indexOf("*/\n") + 3);
      expect(readme).toContain(body.trimEnd());
    }
  });

  const ENVIRONMENTS: Record<string, string>[] = [
    {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: tracesUrl,
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20<key>",
      OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
    },
    {
      // The base endpoint: the SDK appends /v1/traces. A plain space after Bearer.
      OTEL_EXPORTER_OTLP_ENDPOINT: `${baseUrl}/api/otlp`,
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer <key>",
    },
  ];
  for (const environment of ENVIRONMENTS) {
    it(`any OTLP exporter: the environment alone delivers the run (${Object.keys(environment).join(", ")})`, async () => {
      const run = await runAgent({ family: "ai" });
      const saved = { ...process.env };
      for (const [name, value] of Object.entries(environment)) {
        process.env[name] = value.replace("<key>", key);
      }
      let exporter: OtlpJsonExporter;
      try {
        exporter = new OtlpJsonExporter(); // configured from the environment only
      } finally {
        process.env = saved;
      }
      const outcome = await new Promise<{ code: number; error?: Error }>((resolve) =>
        exporter.export(run.spans, resolve),
      );
      await exporter.shutdown();
      expect(outcome.error).toBeUndefined();
      await expectAgentRunStored(run, "support-agent");
    });
  }

  it("Vercel AI SDK: startRoutelensTracing sends every generateText call's spans", async () => {
    const provider = startRoutelensTracing(baseUrl, key);
    const answers = [
      { toolCallId: "call_1", toolName: "lookup_customer", input: { customer: "C-7" } },
      null,
    ];
    let step = 0;
    const finish = (unified: "tool-calls" | "stop") => ({ unified, raw: unified });
    const usage = {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    };
    const model = new MockLanguageModelV4({
      modelId: "mock-model-2",
      doGenerate: async () => {
        await modelLatency();
        const answer = answers[step++];
        return answer
          ? {
              content: [{ type: "tool-call", ...answer, input: JSON.stringify(answer.input) }],
              finishReason: finish("tool-calls"),
              usage,
              warnings: [],
            }
          : {
              content: [{ type: "text", text: "Done." }],
              finishReason: finish("stop"),
              usage,
              warnings: [],
            };
      },
    });
    const result = await generateText({
      model,
      tools: {
        lookup_customer: tool({
          description: "Load a customer's account.",
          inputSchema: z.object({ customer: z.string() }),
          execute: async ({ customer }) => ({ customer }),
        }),
        send_email: tool({
          description: "Email the customer.",
          inputSchema: z.object({ to: z.string() }),
          execute: async () => ({ sent: true }),
        }),
      },
      stopWhen: stepCountIs(5),
      prompt: "Who is C-7?",
      telemetry: { functionId: "support-agent" },
    });
    expect(result.text).toBe("Done.");
    await provider.shutdown();

    const { rows } = await db.query<{ run_id: string; iteration: number; called: string[] }>(
      `SELECT run_id, iteration, called FROM ${DECISIONS_WITH_OUTCOMES} d
        WHERE tenant_id = $1 AND role = 'support-agent' AND model = 'mock-model-2'
        ORDER BY run_id, iteration`,
      [tenant],
    );
    expect(rows.map(({ iteration, called }) => ({ iteration, called }))).toEqual([
      { iteration: 0, called: ["lookup_customer"] },
      { iteration: 1, called: [] },
    ]);
    const stored = await storedRun(rows[0]?.run_id as string);
    expect(stored.decisions.map((d) => d.offered)).toEqual([
      ["lookup_customer", "send_email"],
      ["lookup_customer", "send_email"],
    ]);
    expect(stored.joined).toEqual([
      { tool: "lookup_customer", callIteration: 0, joinedBy: "call_id" },
    ]);
  });
});

describe("routed agents: routelens.* attributes written by recordRouteTurn", () => {
  const tools = AGENT_TOOLS.map((name) => ({ name }));
  const pipelineFor = (): SelectionPipeline =>
    defaultPipeline({
      roleTools: { support: ["search_orders", "refund_order", "lookup_customer"] },
      catalog: new ToolCatalog(tools),
      turn: { verdict: { label: "action", matchedToolKeywords: [] } },
    });

  /**
   * Runs the routed agent in `mode`, exports its spans, replays the same routeTurn of each
   * model call into `/api/ingest` under another tenant, and answers both tenants' stored
   * decisions of the run, column by column.
   */
  async function routedRun(mode: "observe" | "enforce") {
    // What the routed middleware saw on each model call, to replay the same routeTurn.
    const seen: Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"][] =
      [];
    const capture: LanguageModelMiddleware = {
      transformParams: async ({ params }) => {
        seen.push(params);
        return params;
      },
    };
    const run = await runAgent({
      family: "genai",
      middleware: [
        capture,
        routelensMiddleware({ mode, role: "support", pipeline: pipelineFor() }),
      ],
    });
    const callSpans = llmCallSpans(run);
    expect(callSpans.map((span) => span.attributes["routelens.mode"])).toEqual([mode, mode, mode]);
    expect((await exportSpans(run.spans, target("protobuf"))).code).toBe(0);

    // The same routeTurn for each call, sent to /api/ingest under another tenant.
    const types: Record<string, MessageType> = { user: "human", assistant: "ai" };
    const events: TelemetryEvent[] = [];
    for (const [iteration, span] of callSpans.entries()) {
      const params = seen[iteration];
      if (!params) throw new Error(`no model call ${iteration} was seen`);
      const turn = await routeTurn({
        mode,
        pipeline: pipelineFor(),
        tools: params.tools ?? [],
        context: {
          messages: params.prompt.map((message) => ({
            type: types[message.role] ?? (message.role as MessageType),
          })),
        },
        meta: {
          runId: run.traceId,
          iteration,
          role: "support",
          model: "mock-model-1",
          eventId: `otel:${run.traceId}:${span.spanContext().spanId}`,
          timestamp: new Date(span.startTime[0] * 1000 + Math.floor(span.startTime[1] / 1e6)),
        },
      });
      if (!turn.event) throw new Error("routeTurn made no event");
      expect(span.attributes["routelens.selected"]).toEqual(turn.event.selected);
      events.push(
        turn.event,
        outcomeFor(
          turn.event,
          iteration < AGENT_CALLS.length ? [AGENT_CALLS[iteration] as string] : [],
          {
            event_id: `otel:${run.traceId}:${span.spanContext().spanId}:called`,
            timestamp: turn.event.timestamp,
          },
        ),
      );
    }
    const response = await postBatch(baseUrl, ingestKey, events);
    expect(response.status).toBe(200);

    const columns = `event_id, run_id, role, mode, iteration, turn_hop_index, ts, offered_count,
      selected_count, dropped_count, dropped_tokens, reinstatements, empty_palette_warnings,
      stage_errors, forced_choice, palette_identity, config_version, model, agent, intent_label,
      ${offeredOf("decisions")} AS offered, selected, trace::text, warnings::text, has_outcome,
      called, harmful_tools`;
    const read = (tenantId: string) =>
      db.query(
        `SELECT ${columns} FROM ${DECISIONS_WITH_OUTCOMES} AS decisions
          WHERE tenant_id = $1 AND run_id = $2 ORDER BY iteration`,
        [tenantId, run.traceId],
      );
    const viaOtlp = (await read(tenant)).rows;
    const viaIngest = (await read(ingestTenant)).rows;
    return { viaOtlp, viaIngest };
  }

  for (const mode of ["observe", "enforce"] as const) {
    it(`${mode}: each LLM call is stored as the decision /api/ingest stores for the same routeTurn`, async () => {
      const { viaOtlp, viaIngest } = await routedRun(mode);
      expect(viaOtlp).toHaveLength(3);
      expect(viaOtlp).toEqual(viaIngest);
      expect(viaOtlp.map((row) => row.palette_identity)).not.toContain(null);
      // The routing narrowed the palette: three of five tools kept.
      expect(viaOtlp.map((row) => row.selected)).toEqual(
        Array(3).fill(["search_orders", "refund_order", "lookup_customer"]),
      );
      expect(viaOtlp.every((row) => Number(row.dropped_tokens) > 0)).toBe(true);
    });
  }
});
