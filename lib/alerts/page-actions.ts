"use server";
/**
 * Server actions of the rule's page that end somewhere else: deleting a rule goes back to the
 * list (its own page no longer exists). The rules of who may delete stay in
 * `lib/auth/alert-management.ts`.
 */
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/auth/access";
import { type AlertFormState, deleteRuleAs } from "@/lib/auth/alert-management";

export async function deleteAlertRuleFromPage(
  _previous: AlertFormState,
  form: FormData,
): Promise<AlertFormState> {
  const viewer = await getViewer();
  if (!viewer) return { error: "You are signed out. Sign in again, then retry." };
  const state = await deleteRuleAs(viewer, form, await headers());
  if (!state.done) return state;
  revalidatePath("/alerts");
  redirect("/alerts");
}
