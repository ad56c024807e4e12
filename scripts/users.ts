/**
 * `npm run users -- create-admin <email> [--name text]` · `npm run users -- list` ·
 * `npm run users -- link <email>`
 *
 * `create-admin` and `link` print a one-time sign-in link (valid 24 hours) alone on the last
 * line of stdout. Links point at ROUTELENS_URL, or http://localhost:PORT without it.
 */

import { listUsers } from "@/lib/auth/user-list";
import { createSignInLink, createUser, UserExistsError } from "@/lib/auth/users";
import { displayNameSchema, emailSchema } from "@/lib/schemas/accounts";
import { failUsage, parseCommandLine } from "./lib/command-line";
import { runDatabaseCommand } from "./lib/database-command";
import { ensureDevSecret } from "./lib/dev-secret";

const USAGE = `usage:
  npm run users -- create-admin <email> [--name <text>]
  npm run users -- list
  npm run users -- link <email>`;

type UsersCommand =
  | { name: "create-admin"; email: string; displayName: string }
  | { name: "list" }
  | { name: "link"; email: string };

function readEmail(value: string | undefined, command: string): string {
  if (!value) failUsage(`${command}: missing <email>\n${USAGE}`);
  const email = emailSchema.safeParse(value);
  if (!email.success) failUsage(`${command}: <email> ${email.error.issues[0]?.message}`);
  return email.data;
}

/** The command line, checked before any database is opened. */
function readCommand(): UsersCommand {
  const { values, positionals } = parseCommandLine({ name: { type: "string" } }, USAGE, {
    allowPositionals: true,
  });
  const [command, target, ...extra] = positionals;
  if (extra.length > 0) failUsage(`unexpected argument "${extra[0]}"\n${USAGE}`);
  if (values.name !== undefined && command !== "create-admin") {
    failUsage(`--name applies to create-admin only\n${USAGE}`);
  }
  switch (command) {
    case "create-admin": {
      const email = readEmail(target, command);
      const name = displayNameSchema.safeParse(values.name ?? email.split("@")[0]);
      if (!name.success) failUsage(`--name ${name.error.issues[0]?.message}`);
      return { name: "create-admin", email, displayName: name.data };
    }
    case "list":
      if (target) failUsage(`unexpected argument "${target}"\n${USAGE}`);
      return { name: "list" };
    case "link":
      return { name: "link", email: readEmail(target, command) };
    default:
      failUsage(command ? `unknown command "${command}"\n${USAGE}` : USAGE);
  }
}

async function main(command: UsersCommand) {
  switch (command.name) {
    case "create-admin": {
      await createUser({
        email: command.email,
        name: command.displayName,
        password: null,
        isAdmin: true,
      });
      console.log(
        `Created admin ${command.email}. Sign in with this link (valid 24 h, once), then set a password under Settings → Your account:`,
      );
      console.log(await createSignInLink(command.email));
      return;
    }
    case "list": {
      const users = await listUsers();
      if (users.length === 0) {
        console.log(
          "No users yet. Create the first admin with: npm run users -- create-admin <email>",
        );
        return;
      }
      for (const user of users) {
        const state = user.deactivatedAt
          ? `deactivated ${user.deactivatedAt.toISOString()}`
          : "active";
        const roles = user.isAdmin
          ? "admin"
          : user.roles.map((entry) => `${entry.tenant}:${entry.role}`).join(",") || "no tenants";
        const seen = user.lastSignIn
          ? `last sign-in ${user.lastSignIn.toISOString()}`
          : "never signed in";
        console.log(`${user.email}  ${roles}  ${state}  ${seen}`);
      }
      return;
    }
    case "link": {
      console.log(`One-time sign-in link for ${command.email} (valid 24 h):`);
      console.log(await createSignInLink(command.email));
      return;
    }
  }
}

runDatabaseCommand(
  readCommand,
  main,
  (error) => (error instanceof UserExistsError ? error.message : null),
  // Sign-in links need the auth library, which needs a secret (`npm run dev`'s, without one).
  () => ensureDevSecret(),
);
