/**
 * The columns of a backtest's CSV downloads (`/api/export/backtest`): per tool, in the page's
 * order, with the same sentence as the page; per role and arm, with the raw sums and the
 * harmful-drop rate's Wilson interval, so a spreadsheet can redo every figure.
 */
import type { CsvColumn } from "@/lib/dashboard/csv";
import { CONFIDENCE } from "@/lib/rollouts/cohorts";
import { wilsonInterval } from "@/lib/stats";
import { type ToolRow, toolSummaryText } from "./result-view";
import type { ArmSums, ArmsSums } from "./types";

const ratio = (value: number) => Number(value.toFixed(6));
const perDecision = (total: number, decisions: number) =>
  decisions > 0 ? ratio(total / decisions) : "";

export const backtestToolCsvColumns: CsvColumn<ToolRow>[] = [
  { header: "tool", value: (row) => row.tool },
  { header: "offered", value: (row) => row.offered },
  { header: "called", value: (row) => row.called },
  { header: "lost_candidate", value: (row) => row.candidateHarmful },
  { header: "lost_recorded", value: (row) => row.recordedHarmful },
  { header: "lost_baseline", value: (row) => row.baselineHarmful ?? "" },
  { header: "bound_candidate", value: (row) => row.candidateBound },
  { header: "bound_recorded", value: (row) => row.recordedBound },
  { header: "bound_baseline", value: (row) => row.baselineBound ?? "" },
  { header: "estimated_tokens_per_offer", value: (row) => row.tokens ?? "" },
  { header: "token_estimate_source", value: (row) => row.tokenSource },
  { header: "summary", value: (row) => toolSummaryText(row.summary) },
  {
    header: "example_runs",
    value: (row) => row.examples.map((example) => example.key.replace(/\/(\d+)$/, "#$1")).join(" "),
  },
];

/** One arm of one role (or of every role, `(all)`). */
export interface RoleArmLine {
  role: string;
  arm: "recorded" | "candidate" | "baseline";
  sums: ArmSums;
}

/** Overall first, then each role in order; recorded, candidate and baseline for each. */
export function roleArmLines(overall: ArmsSums, roles: Record<string, ArmsSums>): RoleArmLine[] {
  const lines: RoleArmLine[] = [];
  const add = (role: string, arms: ArmsSums) => {
    lines.push({ role, arm: "recorded", sums: arms.recorded });
    lines.push({ role, arm: "candidate", sums: arms.candidate });
    if (arms.baseline) lines.push({ role, arm: "baseline", sums: arms.baseline });
  };
  add("(all)", overall);
  for (const role of Object.keys(roles).sort()) {
    const arms = roles[role];
    if (arms) add(role, arms);
  }
  return lines;
}

function wilson(line: RoleArmLine) {
  return wilsonInterval(
    { successes: line.sums.harmfulDecisions, trials: line.sums.outcomes },
    CONFIDENCE,
  );
}

export const backtestRoleCsvColumns: CsvColumn<RoleArmLine>[] = [
  { header: "role", value: (line) => line.role },
  { header: "arm", value: (line) => line.arm },
  { header: "decisions", value: (line) => line.sums.decisions },
  { header: "outcomes", value: (line) => line.sums.outcomes },
  { header: "harmful_decisions", value: (line) => line.sums.harmfulDecisions },
  { header: "harmful_drops", value: (line) => line.sums.harmfulDrops },
  {
    header: "harmful_drop_rate",
    value: (line) => {
      const interval = wilson(line);
      return interval ? ratio(interval.estimate) : "";
    },
  },
  {
    header: "wilson_lower_95",
    value: (line) => {
      const interval = wilson(line);
      return interval ? ratio(interval.lower) : "";
    },
  },
  {
    header: "wilson_upper_95",
    value: (line) => {
      const interval = wilson(line);
      return interval ? ratio(interval.upper) : "";
    },
  },
  { header: "tokens_saved", value: (line) => line.sums.tokensSaved },
  {
    header: "tokens_saved_per_decision",
    value: (line) => perDecision(line.sums.tokensSaved, line.sums.decisions),
  },
  {
    header: "tools_bound_per_decision",
    value: (line) => perDecision(line.sums.boundTools, line.sums.decisions),
  },
  { header: "empty_palettes", value: (line) => line.sums.emptyPalettes },
  { header: "reinstatements", value: (line) => line.sums.reinstatements },
  { header: "forced_unavailable", value: (line) => line.sums.forcedUnavailable },
  { header: "stage_errors", value: (line) => line.sums.stageErrors },
  { header: "differ_from_recorded", value: (line) => line.sums.differFromRecorded },
];
