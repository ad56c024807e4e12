"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const TABS = [
  { href: "/settings/keys", label: "Ingest keys", adminOnly: false },
  { href: "/settings/users", label: "Users", adminOnly: true },
  { href: "/settings/audit", label: "Audit log", adminOnly: true },
] as const;

/** The settings pages' tabs; users and the audit log are for instance admins only. */
export function SettingsTabs({ isAdmin }: { isAdmin: boolean }) {
  const pathname = usePathname();
  const tabs = TABS.filter((tab) => isAdmin || !tab.adminOnly);
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
