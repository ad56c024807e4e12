import type { FilterChoices } from "@/lib/dashboard/filter-choices";
import type { TimeRange } from "@/lib/dashboard/time-range";
import {
  MAX_THRESHOLD_PERCENT,
  MIN_THRESHOLD_PERCENT,
  type RolloutsSearch,
} from "@/lib/schemas/rollouts";
import { DashboardFilters } from "../ui/dashboard-filters";
import styles from "./rollouts.module.css";

/** Window, tenant, role and verdict threshold. The config pair is chosen in its own section. */
export function RolloutFilters({
  search,
  range,
  choices,
}: {
  search: RolloutsSearch;
  range: TimeRange;
  choices: FilterChoices;
}) {
  return (
    <DashboardFilters
      action="/rollouts"
      label="Rollout filters"
      range={range}
      values={search}
      choices={choices}
      hidden={{ before: search.before, after: search.after, compareMode: search.compareMode }}
      showMode={false}
    >
      <label className="field">
        <span>Harmful-drop threshold (%)</span>
        <input
          className={styles.numberField}
          type="number"
          name="threshold"
          inputMode="decimal"
          step="any"
          min={MIN_THRESHOLD_PERCENT}
          max={MAX_THRESHOLD_PERCENT}
          defaultValue={search.threshold}
          key={search.threshold}
        />
      </label>
    </DashboardFilters>
  );
}
