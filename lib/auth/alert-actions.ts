"use server";
/**
 * The alerts page's server actions. Server actions are public endpoints, so each one resolves
 * the viewer itself and leaves the rules of who may do what to `alert-management.ts`.
 */
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { getViewer } from "./access";
import {
  type AlertFormState,
  createRuleAs,
  deleteRuleAs,
  muteRuleAs,
  type PreviewResult,
  previewRuleAs,
  sendTestAs,
  updateRuleAs,
} from "./alert-management";

const SIGNED_OUT: AlertFormState = { error: "You are signed out. Sign in again, then retry." };

function changed(state: AlertFormState): AlertFormState {
  if (state.done) revalidatePath("/alerts");
  return state;
}

export async function createAlertRule(
  _previous: AlertFormState,
  form: FormData,
): Promise<AlertFormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  return changed(await createRuleAs(viewer, form, await headers()));
}

export async function updateAlertRule(
  _previous: AlertFormState,
  form: FormData,
): Promise<AlertFormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  return changed(await updateRuleAs(viewer, form, await headers()));
}

export async function muteAlertRule(
  _previous: AlertFormState,
  form: FormData,
): Promise<AlertFormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  return changed(await muteRuleAs(viewer, form, await headers()));
}

export async function deleteAlertRule(
  _previous: AlertFormState,
  form: FormData,
): Promise<AlertFormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  return changed(await deleteRuleAs(viewer, form, await headers()));
}

export async function sendAlertTest(
  _previous: AlertFormState,
  form: FormData,
): Promise<AlertFormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  return sendTestAs(viewer, form);
}

/** The rule form's "now" line: called as the form changes, before the rule is saved. */
export async function previewAlertRule(input: Record<string, unknown>): Promise<PreviewResult> {
  const viewer = await getViewer();
  if (!viewer)
    return { ok: false, fieldErrors: { form: "You are signed out. Sign in again, then retry." } };
  return previewRuleAs(viewer, input);
}
