import { formatCount } from "@/lib/dashboard/format";
import type {
  CohortMetricValue,
  DifferenceValue,
  MetricComparison,
  Tone,
} from "@/lib/rollouts/cohorts";
import { createDataColumnHelper, type DataColumn } from "../data-table/data-table";
import styles from "./rollouts.module.css";

const column = createDataColumnHelper<MetricComparison>();

const TONE_CLASS: Record<Tone, string | undefined> = {
  better: styles.better,
  worse: styles.worse,
  changed: styles.changed,
  none: undefined,
};

function CohortValueCell({ value }: { value: CohortMetricValue }) {
  return (
    <>
      {value.display.value}
      {value.display.detail ? <span className={styles.detail}>{value.display.detail}</span> : null}
    </>
  );
}

/** "[a, b]" that may wrap between its bounds when the table is narrow, never inside one. */
function IntervalText({ text }: { text: string }) {
  const [lower, upper, ...rest] = text.split(", ");
  if (upper === undefined || rest.length > 0) return <>{text}</>;
  return (
    <>
      <span className={styles.bound}>{lower},</span> <span className={styles.bound}>{upper}</span>
    </>
  );
}

function DifferenceCell({ value, tone }: { value: DifferenceValue | null; tone: Tone }) {
  if (!value) return <span className="muted">—</span>;
  return <span className={TONE_CLASS[tone]}>{value.display.estimate}</span>;
}

function IntervalCell({ value, tone }: { value: DifferenceValue | null; tone: Tone }) {
  if (!value) return <span className="muted">—</span>;
  return (
    <span className={`${styles.interval} ${TONE_CLASS[tone] ?? ""}`}>
      <IntervalText text={value.display.interval} />
    </span>
  );
}

function cohortColumns(side: "a" | "b", label: string) {
  return column.group({
    id: `${side}Group`,
    header: label,
    columns: [
      column.display({
        id: `${side}Value`,
        header: "Value",
        cell: (info) => <CohortValueCell value={info.row.original[side]} />,
        meta: { align: "right", description: `${label}: mean or rate` },
      }),
      column.display({
        id: `${side}Interval`,
        header: "95% CI",
        cell: (info) => (
          <span className={styles.interval}>
            <IntervalText text={info.row.original[side].display.interval} />
          </span>
        ),
        meta: {
          align: "right",
          description: "t interval for means, Wilson score interval for rates",
        },
      }),
      column.display({
        id: `${side}N`,
        header: "n",
        cell: (info) => formatCount(info.row.original[side].n),
        meta: {
          align: "right",
          description: "Sample size: decisions, or decisions with a reported outcome",
        },
      }),
    ],
  });
}

/** Columns of a cohort comparison; A is the baseline, differences are B − A. */
export function comparisonColumns(labels: {
  a: string;
  b: string;
}): DataColumn<MetricComparison>[] {
  return column.columns([
    column.accessor("label", {
      header: "Metric",
      cell: (info) => (
        <span className={styles.metric} title={info.row.original.description}>
          {info.getValue()}
          <span className={styles.detail}>
            per {info.row.original.base === "outcomes" ? "decision with an outcome" : "decision"}
          </span>
        </span>
      ),
    }),
    cohortColumns("a", labels.a),
    cohortColumns("b", labels.b),
    column.group({
      id: "differenceGroup",
      header: `Difference (${labels.b} − ${labels.a})`,
      columns: [
        column.display({
          id: "difference",
          header: "Absolute",
          cell: (info) => (
            <DifferenceCell value={info.row.original.difference} tone={info.row.original.tone} />
          ),
          meta: {
            align: "right",
            description: "Rates in percentage points; coloured only when the 95% CI excludes 0",
          },
        }),
        column.display({
          id: "differenceInterval",
          header: "95% CI",
          cell: (info) => (
            <IntervalCell value={info.row.original.difference} tone={info.row.original.tone} />
          ),
          meta: { align: "right", description: "Welch interval for means, Newcombe for rates" },
        }),
        column.display({
          id: "relative",
          header: "Relative",
          cell: (info) => (
            <DifferenceCell value={info.row.original.relative} tone={info.row.original.tone} />
          ),
          meta: { align: "right", description: `(${labels.b} − ${labels.a}) / ${labels.a}` },
        }),
        column.display({
          id: "relativeInterval",
          header: "95% CI",
          cell: (info) => (
            <IntervalCell value={info.row.original.relative} tone={info.row.original.tone} />
          ),
          meta: {
            align: "right",
            description: "Log-ratio interval: Katz for rates, delta method for means",
          },
        }),
      ],
    }),
  ]);
}
