/**
 * What a form's server action answers: nothing yet, a message per field (named, with the rule
 * it broke), or a message for the form as a whole.
 */
import type { z } from "zod";

export interface FormState {
  /** Field name → what is wrong with it. */
  fieldErrors?: Record<string, string>;
  /** A problem not tied to one field. */
  error?: string;
  /** Set after success when the form stays on screen (e.g. "Key created"). */
  done?: string;
  /** A value shown once after success (a new key, an invitation link). */
  secret?: string;
  /** What was typed, to fill the form again after a refusal (never passwords). */
  values?: Record<string, string>;
}

export const EMPTY_FORM_STATE: FormState = {};

export function formError(
  field: string,
  message: string,
  values?: Record<string, string>,
): FormState {
  return { fieldErrors: { [field]: message }, values };
}

/** The form's text fields, without passwords, to type them back in after a refusal. */
export function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && !/password/i.test(key)) values[key] = value;
  }
  return values;
}

/** Reads a form's text fields through `schema`; on failure, the first problem of each field. */
export function readForm<T extends z.ZodType>(
  schema: T,
  form: FormData,
  extra: Record<string, unknown> = {},
): { ok: true; data: z.infer<T> } | { ok: false; state: FormState } {
  const record: Record<string, unknown> = { ...extra };
  for (const [key, value] of form.entries()) {
    if (typeof value === "string" && !(key in record)) record[key] = value;
  }
  const result = schema.safeParse(record);
  if (result.success) return { ok: true, data: result.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const name = issue.path.map(String).join(".") || "form";
    fieldErrors[name] ??= issue.message;
  }
  return { ok: false, state: { fieldErrors, values: typedValues(form) } };
}
