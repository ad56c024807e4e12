"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** Who is shown a tab: everyone, maintainers of a tenant (and admins), or admins only. */
type Audience = "everyone" | "maintainers" | "admins";

const TABS: readonly { href: string; label: string; audience: Audience }[] = [
  { href: "/settings/keys", label: "Ingest keys", audience: "everyone" },
  { href: "/settings/users", label: "Users", audience: "admins" },
  { href: "/settings/audit", label: "Audit log", audience: "maintainers" },
  { href: "/settings/account", label: "Your account", audience: "everyone" },
];

/**
 * The settings pages' tabs: users are for instance admins only; the audit log also for
 * maintainers, who read their tenants' entries there.
 */
export function SettingsTabs({
  isAdmin,
  isMaintainer,
}: {
  isAdmin: boolean;
  isMaintainer: boolean;
}) {
  const pathname = usePathname();
  const tabs = TABS.filter(
    (tab) =>
      tab.audience === "everyone" || isAdmin || (tab.audience === "maintainers" && isMaintainer),
  );
  return (
    <nav aria-label="Settings" className="settings-tabs">
      <ul className="nav-links">
        {tabs.map((tab) => {
          const active = pathname === tab.href || pathname.startsWith(`${tab.href}/`);
          return (
            <li key={tab.href}>
              <Link href={tab.href} aria-current={active ? "page" : undefined}>
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
