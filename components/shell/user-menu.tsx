import type { Viewer } from "@/lib/auth/access";
import { signOut } from "@/lib/auth/actions";

/** The signed-in user and sign-out, at the end of the shell's header. */
export function UserMenu({ viewer }: { viewer: Viewer }) {
  return (
    <div className="shell-user">
      <span title={viewer.isAdmin ? "Instance admin" : undefined}>
        {viewer.email}
        {viewer.isAdmin ? " (admin)" : ""}
      </span>
      <form action={signOut}>
        <button type="submit" className="button button-quiet">
          Sign out
        </button>
      </form>
    </div>
  );
}
