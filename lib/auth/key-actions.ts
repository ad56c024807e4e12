"use server";
/**
 * The keys page's server actions. Server actions are public endpoints, so each one resolves
 * the viewer itself and leaves the tenant checks to `key-management.ts`.
 */
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { getViewer } from "./access";
import type { FormState } from "./form-state";
import { createKeyAs, revokeKeyAs } from "./key-management";
import { saveLimitsAs } from "./limit-management";

const SIGNED_OUT: FormState = { error: "You are signed out. Sign in again, then retry." };

export async function createKey(_previous: FormState, form: FormData): Promise<FormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  const state = await createKeyAs(viewer, form, await headers());
  if (state.secret) revalidatePath("/settings/keys");
  return state;
}

export async function revokeKey(_previous: FormState, form: FormData): Promise<FormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  const state = await revokeKeyAs(viewer, form, await headers());
  if (state.done) revalidatePath("/settings/keys");
  return state;
}

export async function saveIngestLimits(_previous: FormState, form: FormData): Promise<FormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  const state = await saveLimitsAs(viewer, form, await headers());
  if (state.done) revalidatePath("/settings/keys");
  return state;
}
