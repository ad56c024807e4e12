"use server";
/**
 * Settings → Account: a user sets their first password (after signing in by one-time link or
 * single sign-on) or changes it. Hashing and checking are the auth library's; changing it ends
 * the user's other sessions.
 */
import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { getPrisma } from "@/lib/db/client";
import { changePasswordFormSchema, setPasswordFormSchema } from "@/lib/schemas/accounts";
import { getViewer } from "./access";
import { recordAudit } from "./audit";
import { type FormState, formError, readForm } from "./form-state";
import { getAuth } from "./server";

const SIGNED_OUT: FormState = { error: "You are signed out. Sign in again, then retry." };

export async function setPasswordAction(_previous: FormState, form: FormData): Promise<FormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  const read = readForm(setPasswordFormSchema, form);
  if (!read.ok) return read.state;
  const requestHeaders = await headers();
  try {
    await getAuth().api.setPassword({
      body: { newPassword: read.data.password },
      headers: requestHeaders,
    });
  } catch (error) {
    if (error instanceof APIError) {
      return { error: `${error.message} Sign in again with a fresh link, then retry.` };
    }
    throw error;
  }
  await recordAudit({ action: "password-set", actorId: viewer.userId, headers: requestHeaders });
  return { done: "Password set. You can now also sign in with your email and this password." };
}

export async function changePasswordAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const viewer = await getViewer();
  if (!viewer) return SIGNED_OUT;
  const read = readForm(changePasswordFormSchema, form);
  if (!read.ok) return read.state;
  const requestHeaders = await headers();
  try {
    await getAuth().api.changePassword({
      body: {
        currentPassword: read.data.currentPassword,
        newPassword: read.data.password,
        // Other sessions are ended below, keeping this one (and its cookie) as it is.
        revokeOtherSessions: false,
      },
      headers: requestHeaders,
    });
  } catch (error) {
    if (error instanceof APIError && error.statusCode === 400) {
      return formError("currentPassword", "is not your current password.");
    }
    throw error;
  }
  const current = await getAuth().api.getSession({ headers: requestHeaders });
  await getPrisma().session.deleteMany({
    where: { userId: viewer.userId, NOT: { id: current?.session.id ?? "" } },
  });
  await recordAudit({
    action: "password-changed",
    actorId: viewer.userId,
    headers: requestHeaders,
  });
  return { done: "Password changed. Your other sessions were signed out." };
}
