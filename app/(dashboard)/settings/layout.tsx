import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { requireViewer } from "@/lib/auth/access";

/** Every settings page: its tabs, the admin-only ones shown to instance admins alone. */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const viewer = await requireViewer();
  return (
    <>
      <SettingsTabs isAdmin={viewer.isAdmin} />
      {children}
    </>
  );
}
