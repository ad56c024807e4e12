import { redirect } from "next/navigation";

/** `/settings` opens its first tab, the tab every signed-in user has. */
export default function SettingsPage() {
  redirect("/settings/keys");
}
