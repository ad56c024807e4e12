/**
 * The designed data set of the rollout tests (the end-to-end spec ingests the same shape):
 * observe traffic under config cfg-a (40 decisions, 4 harmful drops) then cfg-b (20 decisions),
 * then enforce traffic under cfg-b (30 decisions, 6 outcomes without a tool call, 3
 * reinstatements, 1 empty palette). Dropped tokens: cfg-a observe 100 + 10·(i mod 5),
 * cfg-b observe 110 + 5·(i mod 3), enforce 130 + 10·(i mod 4).
 */
import type { CohortCell, CohortSums } from "./types";

function tokens(count: number, value: (i: number) => number) {
  let sum = 0;
  let sumOfSquares = 0;
  for (let i = 0; i < count; i++) {
    sum += value(i);
    sumOfSquares += value(i) ** 2;
  }
  return { sum, sumOfSquares };
}

function cohort(
  decisions: number,
  droppedTokens: { sum: number; sumOfSquares: number },
  selected: number,
  extra: Partial<CohortSums>,
): CohortSums {
  return {
    decisions,
    droppedTokens: droppedTokens.sum,
    droppedTokensSq: droppedTokens.sumOfSquares,
    offeredTools: 5 * decisions,
    offeredToolsSq: 25 * decisions,
    selectedTools: selected * decisions,
    selectedToolsSq: selected * selected * decisions,
    decisionsReinstated: 0,
    decisionsEmptyPalette: 0,
    decisionsStageError: 0,
    outcomes: decisions,
    harmfulDecisions: 0,
    harmfulDrops: 0,
    zeroCallOutcomes: 0,
    ...extra,
  };
}

export const OBSERVE_CFG_A = cohort(
  40,
  tokens(40, (i) => 100 + (i % 5) * 10),
  3,
  { harmfulDecisions: 4, harmfulDrops: 4 },
);
export const OBSERVE_CFG_B = cohort(
  20,
  tokens(20, (i) => 110 + (i % 3) * 5),
  3,
  {},
);
export const ENFORCE_CFG_B = cohort(
  30,
  tokens(30, (i) => 130 + (i % 4) * 10),
  2,
  { zeroCallOutcomes: 6, decisionsReinstated: 3, decisionsEmptyPalette: 1 },
);

const minute = (iso: string) => new Date(iso);

/** The three (mode, config) cells, first seen at 07:12, 08:30 and 10:05 UTC. */
export const DESIGNED_CELLS: CohortCell[] = [
  {
    ...OBSERVE_CFG_A,
    mode: "observe",
    configVersion: "cfg-a",
    firstSeen: minute("2026-03-02T07:12:00Z"),
    lastBucket: minute("2026-03-02T07:00:00Z"),
  },
  {
    ...OBSERVE_CFG_B,
    mode: "observe",
    configVersion: "cfg-b",
    firstSeen: minute("2026-03-02T08:30:00Z"),
    lastBucket: minute("2026-03-02T08:00:00Z"),
  },
  {
    ...ENFORCE_CFG_B,
    mode: "enforce",
    configVersion: "cfg-b",
    firstSeen: minute("2026-03-02T10:05:00Z"),
    lastBucket: minute("2026-03-02T10:00:00Z"),
  },
];
