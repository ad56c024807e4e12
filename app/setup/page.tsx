import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { hasAnyUser } from "@/lib/auth/access";

export const metadata: Metadata = { title: "Set up" };

/**
 * First run of a server without users: every page leads here until the first admin exists.
 * The setup token proves the person at the browser can read the server's log.
 */
export default async function SetupPage() {
  if (await hasAnyUser()) redirect("/sign-in");
  return (
    <div className="panel auth-card">
      <h1>Set up Routelens</h1>
      <p className="muted">
        This Routelens has no users yet. Create its first admin with the one-time setup token the
        server printed when it started (a line starting with <code>[routelens] setup token</code>).
      </p>
      <SetupForm />
    </div>
  );
}
