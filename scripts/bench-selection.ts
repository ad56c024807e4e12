/**
 * `npm run bench:selection` — what the selection core costs per model iteration, in this
 * process (no server, no database): 40 tools with catalogue metadata, the six default stages
 * all configured (trigger keywords, lazy routing, a forced choice, role palettes, a policy,
 * the allowlist). Prints, per turn:
 *
 * - preparation with `prepareRouting(config).pipeline(turn)` (the configuration prepared once);
 * - preparation with `defaultPipeline({ ...config, turn })` (the whole configuration, version
 *   hash included, built again every turn), side by side;
 * - `pipeline.select(tools, context)`.
 *
 * Each figure is the median, over several rounds of many calls, of the process's CPU time per
 * call; nothing is asserted.
 */
import {
  defaultPipeline,
  prepareRouting,
  type RoutingConfig,
  type SelectionContext,
  ToolCatalog,
  type TurnInputs,
} from "@/lib/selection";

const TOOL_COUNT = 40;
const ROUNDS = 9;
const SAFETY = ["read", "write", "destructive"] as const;
const CATEGORIES = ["orders", "billing", "shipping", "account", "knowledge"];

const tools = Array.from({ length: TOOL_COUNT }, (_, i) => ({
  name: i === 0 ? "hydrate_context" : `tool_${String(i).padStart(2, "0")}`,
  description: `Does task number ${i} for the customer; a sentence or two of description that the model reads before it decides which tool to call.`,
  safetyLevel: SAFETY[i % 3],
  costUsd: (i % 7) / 100,
  category: CATEGORIES[i % CATEGORIES.length],
  ...(i % 10 === 9 ? { requiredCapability: "payments" } : {}),
}));
const names = tools.map((tool) => tool.name);

const config: RoutingConfig = {
  roleTools: {
    action: names.slice(0, 30),
    reasoning: names.filter((_, i) => i % 2 === 0),
    reflection: names.slice(0, 6),
  },
  alwaysInclude: ["hydrate_context", "tool_01"],
  triggerKeywords: Object.fromEntries(
    names.slice(1, 25).map((name, i) => [name, [`word${i}`, `other${i}`]]),
  ),
  policy: {
    maxSafetyLevel: "write",
    budgetUsd: 0.05,
    availableCapabilities: ["crm"],
    categories: ["orders", "billing", "shipping", "knowledge"],
  },
  catalog: new ToolCatalog(tools),
};

const turns: TurnInputs[] = Array.from({ length: 16 }, (_, i) => ({
  verdict: { label: "action", matchedToolKeywords: [names[1 + (i % 24)] as string, "tool_03"] },
  allowedNames: names.slice(i, i + 24),
}));
const context: SelectionContext = {
  role: "action",
  state: {
    forced_tool_choice: "tool_04",
    messages: [{ type: "human", content: "Where is my order?" }],
  },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Median microseconds of this process's CPU time per call of `run`, over `ROUNDS` rounds of
 * `calls` calls each. CPU time rather than wall time, so other work on a shared machine does
 * not count (it still costs some through the caches).
 */
async function perCall(calls: number, run: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < calls; i++) await run(i); // warm-up
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) await run(i);
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / calls);
  }
  return median(rounds);
}

function turnAt(i: number): TurnInputs {
  return turns[i % turns.length] as TurnInputs;
}

const prepareOnce = await perCall(1_000, () => prepareRouting(config));
const prepared = prepareRouting(config);
const perTurn = await perCall(200_000, (i) => prepared.pipeline(turnAt(i)));
const perTurnOld = await perCall(2_000, (i) => defaultPipeline({ ...config, turn: turnAt(i) }));
const pipelines = turns.map((turn) => prepared.pipeline(turn));
const select = await perCall(50_000, (i) =>
  pipelines[i % pipelines.length]?.select(tools, context),
);
const selectResult = await pipelines[0]?.select(tools, context);

const format = (us: number) => `${us.toFixed(2)} µs`;
console.log(
  `selection core, ${TOOL_COUNT} tools, stages: ${prepared
    .pipeline()
    .stages.map((s) => s.name)
    .join(" → ")}`,
);
console.log(`  (one select keeps ${selectResult?.tools.length ?? 0} of ${TOOL_COUNT} tools)`);
console.log(`prepareRouting(config), once per configuration:     ${format(prepareOnce)}`);
console.log(
  `per-turn preparation, prepared.pipeline(turn):      ${format(perTurn)}   (target ≤ 5 µs)`,
);
console.log(`per-turn preparation, defaultPipeline({...config, turn}): ${format(perTurnOld)}`);
console.log(
  `pipeline.select(tools, context):                    ${format(select)}   (target ≤ 20 µs)`,
);
