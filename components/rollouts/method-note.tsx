import styles from "./rollouts.module.css";

/** The caveat every reader of this page needs: these cohorts were not randomised. */
export function ObservationalNote() {
  return (
    <aside className={`panel notice ${styles.note}`} data-testid="observational-note">
      <p>
        <strong>Observational comparison, not an experiment.</strong> The cohorts were not
        randomised: observe and enforce traffic, and traffic before and after a config change, can
        differ in tenants, roles, tasks and time of day. A difference here is a lead to check in the
        runs, not proof that the mode or the config caused it.
      </p>
      <p>
        Intervals need enough data: a cohort with few decisions (or few reported outcomes, for the
        harmful-drop and zero-call rates) gives wide intervals, and the verdict below states the
        minimum sample it needs.
      </p>
    </aside>
  );
}

/** How every number on the page is computed. */
export function MethodNote() {
  return (
    <details className={`panel ${styles.method}`} data-testid="method-note">
      <summary>How this is computed</summary>
      <dl>
        <dt>Source</dt>
        <dd>
          Rollup sums per tenant, role, mode, config version and bucket (minute buckets for the last
          hour, hour buckets otherwise); examples of harmful drops are looked up in the decisions of
          the hour they happened.
        </dd>
        <dt>Means</dt>
        <dd>
          Dropped tokens, tools offered and tools selected per decision: mean = sum / n, sample
          variance s² = (Σx² − (Σx)²/n) / (n − 1), 95% t interval per cohort.
        </dd>
        <dt>Rates</dt>
        <dd>
          Reinstatement, empty-palette and stage-error rates: decisions with at least one /
          decisions. Harmful-drop rate: decisions with an outcome in which the model called a tool
          the narrowing dropped / decisions with an outcome. Zero-tool-call rate: outcomes that
          called no tool / decisions with an outcome. 95% Wilson score interval per cohort.
        </dd>
        <dt>Differences</dt>
        <dd>
          B − A. Means: Welch interval with Welch–Satterthwaite degrees of freedom and the Student t
          quantile. Rates: Newcombe hybrid score interval (method 10), in percentage points. A
          difference is coloured only when its interval excludes zero (green better, red worse, blue
          changed where neither direction is better).
        </dd>
        <dt>Relative difference</dt>
        <dd>
          (B − A) / A, shown as “—” when A is 0. Interval on the log ratio: Katz for rates, delta
          method for means.
        </dd>
        <dt>Verdict</dt>
        <dd>
          Observe traffic only. Safe to enforce when decisions with an outcome ≥ n_min and the 95%
          Wilson upper bound of the harmful-drop rate is below the threshold; n_min = ⌊z²(1 − t)/t⌋
          + 1 with z = 1.96, the smallest sample whose bound can fall under t at all (381 for 1%).
        </dd>
        <dt>Markers</dt>
        <dd>
          Dashed lines where a mode or config version first appears in the window after another one
          was already seen, at the bucket of its first minute.
        </dd>
      </dl>
    </details>
  );
}
