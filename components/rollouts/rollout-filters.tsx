import type { FilterChoices } from "@/lib/dashboard/filter-choices";
import type { TimeRange } from "@/lib/dashboard/time-range";
import {
  MAX_THRESHOLD_PERCENT,
  MIN_THRESHOLD_PERCENT,
  type RolloutsSearch,
} from "@/lib/schemas/rollouts";
import { PRESET_OPTIONS } from "../ui/dashboard-filters";
import { FilterForm, SelectField } from "../ui/filter-form";
import { RangeField } from "../ui/range-field";
import styles from "./rollouts.module.css";

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

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
    <FilterForm
      action="/rollouts"
      label="Rollout filters"
      hidden={{ before: search.before, after: search.after, cmode: search.cmode }}
    >
      <RangeField
        key={`${search.range}|${search.from ?? ""}|${search.to ?? ""}`}
        value={range.fellBack ? "24h" : search.range}
        options={PRESET_OPTIONS}
        from={search.from ?? range.from.toISOString()}
        to={search.to ?? range.to.toISOString()}
      />
      <SelectField
        name="tenant"
        label="Tenant"
        value={search.tenant}
        options={options(choices.tenants)}
        allLabel="All tenants"
      />
      <SelectField
        name="role"
        label="Role"
        value={search.role}
        options={options(choices.roles)}
        allLabel="All roles"
      />
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
    </FilterForm>
  );
}
