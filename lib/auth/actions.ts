"use server";
/**
 * Server actions of signing in and out that are not the auth library's own endpoints: sign-out
 * (with its audit row), first-run setup.
 */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { setupFormSchema } from "@/lib/schemas/accounts";
import { getViewer } from "./access";
import { recordAudit } from "./audit";
import { type FormState, formError, readForm, typedValues } from "./form-state";
import { getAuth } from "./server";
import { completeSetup } from "./users";

export async function signOut(): Promise<void> {
  const requestHeaders = await headers();
  const viewer = await getViewer();
  await getAuth().api.signOut({ headers: requestHeaders });
  if (viewer) {
    await recordAudit({
      action: "sign-out",
      actorId: viewer.userId,
      actorEmail: viewer.email,
      headers: requestHeaders,
    });
  }
  redirect("/sign-in");
}

/** `/setup`: checks the one-time token, creates the first admin and signs them in. */
export async function setUpInstance(_previous: FormState, form: FormData): Promise<FormState> {
  const read = readForm(setupFormSchema, form);
  if (!read.ok) return read.state;
  const { token, ...admin } = read.data;
  const created = await completeSetup(token, admin);
  if (!created) {
    return formError(
      "token",
      "is not a valid setup token: copy the one the server printed at its latest start, or sign in if setup was already done.",
      typedValues(form),
    );
  }
  const requestHeaders = await headers();
  await recordAudit({
    action: "setup-completed",
    actorId: created.id,
    actorEmail: created.email,
    headers: requestHeaders,
  });
  await getAuth().api.signInEmail({
    body: { email: admin.email, password: admin.password },
    headers: requestHeaders,
  });
  redirect("/");
}
