/**
 * `/settings/audit`: the audit log's filters and page in the URL. Like every page's schema, a
 * malformed parameter falls back to its default (`parseSearchParams`), so a hand-edited link
 * still opens the log.
 */
import { z } from "zod";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/auth/audit";
import {
  customRangeFields,
  MAX_PAGE,
  optionalText,
  param,
  RANGE_PRESETS,
  tenantParam,
} from "./dashboard";

/** Entries per page, newest first. */
export const AUDIT_PAGE_SIZE = 50;

export const AUDIT_ACTION_KEYS = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

export const auditSearchSchema = z.object({
  /** Time range: all time (default), a preset, or `custom` with `from` and `to`. */
  range: param(z.enum(["all", ...RANGE_PRESETS, "custom"])).default("all"),
  ...customRangeFields,
  action: param(z.enum(AUDIT_ACTION_KEYS).optional()),
  tenant: tenantParam,
  /** The start of the actor's email (for failed sign-ins: of the email that was tried). */
  actor: optionalText(320),
  page: param(z.coerce.number().int().min(1).max(MAX_PAGE)).default(1),
});
export type AuditSearch = z.infer<typeof auditSearchSchema>;
