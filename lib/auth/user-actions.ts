"use server";
import { revalidatePath } from "next/cache";
/**
 * Server actions of Settings → Users. Each one reads the signed-in viewer again (a server
 * action is a public endpoint) and hands it to `user-admin.ts` / `invitations.ts`, which refuse
 * anyone but an admin. Answers are `FormState`s: a field's problem, or a message for the form.
 */
import { headers } from "next/headers";
import {
  INVITE_ROLE_FIELD_PREFIX,
  invitationIdFormSchema,
  inviteFormSchema,
  setActiveFormSchema,
  setAdminFormSchema,
  setTenantRoleFormSchema,
} from "@/lib/schemas/accounts";
import { getViewer } from "./access";
import { type FormState, readForm, typedValues } from "./form-state";
import { INVITE_PATH, invitationOrigin, inviteUser, revokeInvitation } from "./invitations";
import { deactivate, reactivate, setAdmin, setTenantRole, UserAdminError } from "./user-admin";

const USERS_PATH = "/settings/users";

/** Runs `change`, mapping a refused change to the form's answer (with what was typed). */
async function answer(form: FormData, change: () => Promise<FormState>): Promise<FormState> {
  try {
    const state = await change();
    revalidatePath(USERS_PATH);
    return state;
  } catch (error) {
    if (error instanceof UserAdminError) {
      const values = typedValues(form);
      return error.field
        ? { fieldErrors: { [error.field]: error.message }, values }
        : { error: error.message, values };
    }
    throw error;
  }
}

export async function inviteUserAction(_previous: FormState, form: FormData): Promise<FormState> {
  const roles: { tenant: string; role: string }[] = [];
  for (const [key, value] of form.entries()) {
    if (key.startsWith(INVITE_ROLE_FIELD_PREFIX) && typeof value === "string" && value !== "none") {
      roles.push({ tenant: key.slice(INVITE_ROLE_FIELD_PREFIX.length), role: value });
    }
  }
  const read = readForm(inviteFormSchema, form, {
    isAdmin: form.get("isAdmin") === "on",
    roles,
  });
  if (!read.ok) {
    // A role problem is reported on the roles group, whichever tenant it was.
    const fieldErrors: Record<string, string> = {};
    for (const [name, message] of Object.entries(read.state.fieldErrors ?? {})) {
      const field = name.startsWith("roles") ? "roles" : name;
      fieldErrors[field] ??= message;
    }
    return { fieldErrors, values: typedValues(form) };
  }
  const requestHeaders = await headers();
  const viewer = await getViewer();
  return answer(form, async () => {
    const created = await inviteUser(viewer, read.data, requestHeaders);
    return {
      done: `Invitation for ${read.data.email} created. Send this link to them; it is shown only now and works once, for 7 days.`,
      secret: `${invitationOrigin(requestHeaders)}${INVITE_PATH}${created.token}`,
    };
  });
}

export async function revokeInvitationAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const read = readForm(invitationIdFormSchema, form);
  if (!read.ok) return read.state;
  const requestHeaders = await headers();
  const viewer = await getViewer();
  return answer(form, async () => {
    await revokeInvitation(viewer, read.data.invitationId, requestHeaders);
    return { done: "Invitation revoked." };
  });
}

export async function setTenantRoleAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const read = readForm(setTenantRoleFormSchema, form);
  if (!read.ok) return read.state;
  const { userId, tenant, role } = read.data;
  const requestHeaders = await headers();
  const viewer = await getViewer();
  return answer(form, async () => {
    const { before } = await setTenantRole(
      viewer,
      { userId, tenant, role: role === "none" ? null : role },
      requestHeaders,
    );
    const after = role === "none" ? "no role" : role;
    return {
      done:
        before === (role === "none" ? null : role)
          ? `Already ${after} in ${tenant}.`
          : `Now ${after} in ${tenant}.`,
    };
  });
}

export async function setAdminAction(_previous: FormState, form: FormData): Promise<FormState> {
  const read = readForm(setAdminFormSchema, form);
  if (!read.ok) return read.state;
  const requestHeaders = await headers();
  const viewer = await getViewer();
  return answer(form, async () => {
    await setAdmin(viewer, read.data, requestHeaders);
    return { done: read.data.isAdmin ? "Now an admin." : "No longer an admin." };
  });
}

/** Deactivates (their sessions end at once) or reactivates a user. */
export async function setUserActiveAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const read = readForm(setActiveFormSchema, form);
  if (!read.ok) return read.state;
  const { userId, active } = read.data;
  const requestHeaders = await headers();
  const viewer = await getViewer();
  return answer(form, async () => {
    if (active) {
      await reactivate(viewer, userId, requestHeaders);
      return { done: "Reactivated: they can sign in again." };
    }
    await deactivate(viewer, userId, requestHeaders);
    return { done: "Deactivated: their sessions have ended." };
  });
}
