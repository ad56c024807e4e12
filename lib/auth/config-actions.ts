"use server";
/**
 * The config editor's server actions. Server actions are public endpoints, so each one
 * resolves the viewer itself and leaves who may do what to `config-management.ts`.
 */
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ConfigIssue } from "@/lib/configs/check";
import { configNoteSchema, configTenantSchema } from "@/lib/schemas/config-api";
import { getViewer } from "./access";
import { type ConfigPreview, previewConfigAs, saveConfigAs } from "./config-management";

/** What the editor shows after a refused save. */
export interface ConfigSaveState {
  issues?: ConfigIssue[];
  error?: string;
}

const SIGNED_OUT = "You are signed out. Sign in again, then retry.";

function parseConfigText(
  text: string,
): { ok: true; value: unknown } | { ok: false; issue: ConfigIssue } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : "it could not be parsed";
    return { ok: false, issue: { field: "config", message: `is not valid JSON: ${reason}` } };
  }
}

/** The version and diff the editor's config would get, before saving it. */
export async function previewConfig(tenant: string, configText: string): Promise<ConfigPreview> {
  const viewer = await getViewer();
  if (!viewer) return { ok: false, status: "forbidden", message: SIGNED_OUT };
  const parsedTenant = configTenantSchema.safeParse(tenant);
  if (!parsedTenant.success) return { ok: false, status: "not-found", message: "No such tenant." };
  const parsed = parseConfigText(configText);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  return previewConfigAs({ kind: "user", viewer }, parsedTenant.data, parsed.value);
}

/** Saves the editor's config as the tenant's new current version, then opens the config page. */
export async function saveConfig(
  _previous: ConfigSaveState,
  form: FormData,
): Promise<ConfigSaveState> {
  const viewer = await getViewer();
  if (!viewer) return { error: SIGNED_OUT };
  const tenant = configTenantSchema.safeParse(form.get("tenant"));
  if (!tenant.success) return { error: "No such tenant." };
  const note = configNoteSchema.safeParse(String(form.get("note") ?? ""));
  if (!note.success) {
    return {
      issues: [{ field: "note", message: note.error.issues[0]?.message ?? "is not valid" }],
    };
  }
  const parsed = parseConfigText(String(form.get("config") ?? ""));
  if (!parsed.ok) return { issues: [parsed.issue] };
  const saved = await saveConfigAs(
    { kind: "user", viewer },
    tenant.data,
    { config: parsed.value, note: note.data },
    await headers(),
  );
  switch (saved.status) {
    case "invalid":
      return { issues: saved.issues };
    case "no-tenant":
      return { error: "No such tenant." };
    case "not-found":
    case "forbidden":
      return { error: saved.message };
    case "saved":
    case "unchanged": {
      const path = `/configs/${encodeURIComponent(tenant.data)}`;
      revalidatePath(path);
      revalidatePath("/configs");
      const changed = saved.status === "saved" ? "1" : "0";
      redirect(`${path}?saved=${encodeURIComponent(saved.configVersion)}&changed=${changed}`);
    }
  }
}
