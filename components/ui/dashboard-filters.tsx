import type { FilterChoices } from "@/lib/dashboard/filter-choices";
import type { TimeRange } from "@/lib/dashboard/time-range";
import { STORED_MODES } from "@/lib/schemas/events";
import { FilterForm, SelectField } from "./filter-form";
import { RangeField } from "./range-field";

const PRESET_OPTIONS = [
  { value: "1h", label: "Last hour" },
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
] as const;

const ALL_TIME_OPTIONS = [{ value: "all", label: "All time" }, ...PRESET_OPTIONS] as const;

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** Every stored mode; `off` is the traffic of agents that route nothing (OpenTelemetry spans). */
const MODE_OPTIONS = STORED_MODES.map((mode) => ({
  value: mode,
  label: mode === "off" ? "off (not routed)" : mode,
}));

/**
 * The filter bar shared by the overview, runs, tools and rollouts pages (pages add their own
 * fields as children; rollouts compare modes, so they leave the mode field out). The range
 * field shows the resolved range's preset; `range` is null for "all time", which only pages
 * with `allTime` offer.
 */
export function DashboardFilters({
  action,
  label,
  allTime = false,
  range,
  values,
  choices,
  hidden,
  showMode = true,
  children,
}: {
  action: string;
  label: string;
  /** Offer "All time" before the presets (the runs page's default). */
  allTime?: boolean;
  /** The resolved window (null for all time): the field's value, and a custom range's prefill. */
  range: TimeRange | null;
  values: {
    tenant?: string | undefined;
    role?: string | undefined;
    mode?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
  };
  choices: FilterChoices;
  hidden: Record<string, string | undefined>;
  showMode?: boolean;
  children?: React.ReactNode;
}) {
  const rangeValue = range?.preset ?? "all";
  return (
    <FilterForm action={action} hidden={hidden} label={label}>
      <RangeField
        key={`${rangeValue}|${values.from ?? ""}|${values.to ?? ""}`}
        value={rangeValue}
        options={allTime ? ALL_TIME_OPTIONS : PRESET_OPTIONS}
        from={values.from ?? range?.from.toISOString()}
        to={values.to ?? range?.to.toISOString()}
      />
      <SelectField
        name="tenant"
        label="Tenant"
        value={values.tenant}
        options={options(choices.tenants)}
        allLabel="All tenants"
      />
      <SelectField
        name="role"
        label="Role"
        value={values.role}
        options={options(choices.roles)}
        allLabel="All roles"
      />
      {showMode && (
        <SelectField
          name="mode"
          label="Mode"
          value={values.mode}
          options={MODE_OPTIONS}
          allLabel="All modes"
        />
      )}
      {children}
    </FilterForm>
  );
}
