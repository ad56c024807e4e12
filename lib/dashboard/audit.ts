/**
 * The audit page's rows and links, prepared from stored entries (pure: no I/O).
 */
import { AUDIT_ACTIONS } from "@/lib/auth/audit";
import type { AuditEntryRow } from "@/lib/db/queries/audit";
import { auditSearchSchema } from "@/lib/schemas/audit";
import { defineView } from "./url";

/** `/settings/audit` links; changing a filter goes back to page 1. */
export const auditView = defineView("/settings/audit", auditSearchSchema, { position: ["page"] });

/** What the audit table shows for one entry. */
export interface AuditRow {
  id: string;
  at: string;
  /** The actor's email; null when there is none (a failed sign-in of an unknown user). */
  who: string | null;
  /** The action in words; an action this version does not know is shown by its name. */
  action: string;
  tenant: string | null;
  target: string | null;
  details: string;
  ip: string | null;
}

const DETAIL_MAX = 300;

function describeValue(value: unknown): string {
  if (value === null) return "none";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
}

/** `{ method: "password", status: 401 }` → `method: password, status: 401`. */
export function describeAuditDetail(detail: unknown): string {
  if (detail === null || detail === undefined) return "";
  const text =
    typeof detail === "object" && !Array.isArray(detail)
      ? Object.entries(detail)
          .map(([key, value]) => `${key}: ${describeValue(value)}`)
          .join(", ")
      : describeValue(detail);
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX - 1)}…` : text;
}

export function actionWords(action: string): string {
  return Object.hasOwn(AUDIT_ACTIONS, action)
    ? AUDIT_ACTIONS[action as keyof typeof AUDIT_ACTIONS]
    : action;
}

export function toAuditRow(entry: AuditEntryRow): AuditRow {
  return {
    id: entry.id,
    at: entry.at,
    who: entry.actorEmail,
    action: actionWords(entry.action),
    tenant: entry.tenantId,
    target: entry.target,
    details: describeAuditDetail(entry.detail),
    ip: entry.ip,
  };
}
