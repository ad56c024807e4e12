"use server";
/** `/invite/<token>`: the invited person picks a name and password, and is signed in. */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { acceptInvitationSchema } from "@/lib/schemas/accounts";
import { type FormState, readForm, typedValues } from "./form-state";
import { acceptInvitation, INVITATION_PROBLEMS } from "./invitations";
import { getAuth } from "./server";

export async function acceptInvitationAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const read = readForm(acceptInvitationSchema, form);
  if (!read.ok) return read.state;
  const requestHeaders = await headers();
  const result = await acceptInvitation(read.data.token, read.data, requestHeaders);
  if (!result.ok) {
    return { error: INVITATION_PROBLEMS[result.reason], values: typedValues(form) };
  }
  try {
    await getAuth().api.signInEmail({
      body: { email: result.email, password: read.data.password },
      headers: requestHeaders,
    });
  } catch {
    // The account exists either way: signing in by hand is the way on.
    redirect("/sign-in");
  }
  redirect("/");
}
