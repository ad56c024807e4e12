import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { maintainedTenants, requireViewer } from "@/lib/auth/access";

/** Every settings page: its tabs, each shown to those who may open it. */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const viewer = await requireViewer();
  return (
    <>
      <SettingsTabs
        isAdmin={viewer.isAdmin}
        isMaintainer={(maintainedTenants(viewer)?.length ?? 0) > 0}
      />
      {children}
    </>
  );
}
