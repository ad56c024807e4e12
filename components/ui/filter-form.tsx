"use client";

/**
 * A GET form for a page's filters. With JavaScript it navigates client-side, leaving empty
 * fields out of the URL, and applies a select or checkbox as soon as it changes; without
 * JavaScript it is a plain form with an Apply button.
 */
import { useRouter } from "next/navigation";
import { type FormEvent, type ReactNode, useRef, useTransition } from "react";

export function FilterForm({
  action,
  hidden = {},
  children,
  label,
}: {
  action: string;
  /** State that is not edited here but must survive a submit (sort, page size, live mode). */
  hidden?: Record<string, string | undefined>;
  children: ReactNode;
  label: string;
}) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [pending, startTransition] = useTransition();

  const submit = (form: HTMLFormElement) => {
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === "string" && value.trim() !== "") params.append(key, value.trim());
    }
    const query = params.toString();
    startTransition(() => {
      router.push(query ? `${action}?${query}` : action, { scroll: false });
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit(event.currentTarget);
  };

  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    // Choosing a custom range waits for its dates and the Apply button.
    if (target instanceof HTMLSelectElement && target.value === "custom") return;
    const isSelect = target instanceof HTMLSelectElement;
    const isCheckbox = target instanceof HTMLInputElement && target.type === "checkbox";
    if ((isSelect || isCheckbox) && formRef.current) submit(formRef.current);
  };

  return (
    <form
      ref={formRef}
      method="get"
      action={action}
      className="filter-bar"
      aria-label={label}
      onSubmit={onSubmit}
      onChange={onChange}
      aria-busy={pending}
    >
      {Object.entries(hidden).map(([name, value]) =>
        value === undefined || value === "" ? null : (
          <input key={name} type="hidden" name={name} value={value} />
        ),
      )}
      {children}
      <button type="submit" className="button">
        Apply
      </button>
    </form>
  );
}

/** A labelled select whose empty option means "all". */
export function SelectField({
  name,
  label,
  value,
  options,
  allLabel,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: readonly { value: string; label: string }[];
  allLabel?: string;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <select name={name} defaultValue={value ?? ""} key={value ?? ""}>
        {allLabel !== undefined ? <option value="">{allLabel}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
