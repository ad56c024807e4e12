import type { FilterChoices } from "@/lib/dashboard/filter-choices";
import type { TimeRange } from "@/lib/dashboard/time-range";
import { ROUTING_MODES } from "@/lib/schemas/events";
import { FilterForm, SelectField } from "./filter-form";
import { RangeField } from "./range-field";

export const PRESET_OPTIONS = [
  { value: "1h", label: "Last hour" },
  { value: "24h", label: "Last 24 hours" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
] as const;

const options = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/**
 * The filter bar shared by the overview, runs, tools and rollouts pages (pages add their own
 * fields as children; rollouts compare modes, so they leave the mode field out).
 */
export function DashboardFilters({
  action,
  label,
  rangeValue,
  rangeOptions,
  range,
  values,
  choices,
  hidden,
  showMode = true,
  children,
}: {
  action: string;
  label: string;
  rangeValue: string;
  rangeOptions: readonly { value: string; label: string }[];
  /** The resolved window, to prefill a custom range. */
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
  return (
    <FilterForm action={action} hidden={hidden} label={label}>
      <RangeField
        key={`${rangeValue}|${values.from ?? ""}|${values.to ?? ""}`}
        value={rangeValue}
        options={rangeOptions}
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
          options={options(ROUTING_MODES)}
          allLabel="All modes"
        />
      )}
      {children}
    </FilterForm>
  );
}
