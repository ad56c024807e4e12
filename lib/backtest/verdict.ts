/**
 * The verdict on one arm of a backtest, by the rule of the rollouts view (`lib/rollouts/verdict.ts`:
 * minimum sample, then the 95% Wilson upper bound of the harmful-drop rate below the threshold).
 * The sample is the arm's decisions with a recorded outcome.
 */

import { ZERO_COHORT_SUMS } from "@/lib/rollouts/types";
import { decideVerdict, type Verdict } from "@/lib/rollouts/verdict";
import type { ArmSums } from "./types";

export function armVerdict(arm: ArmSums, thresholdPercent: number): Verdict {
  return decideVerdict(
    {
      ...ZERO_COHORT_SUMS,
      decisions: arm.decisions,
      outcomes: arm.outcomes,
      harmfulDecisions: arm.harmfulDecisions,
      harmfulDrops: arm.harmfulDrops,
    },
    thresholdPercent,
  );
}
