import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { type ReactNode, Suspense } from "react";
import { DemoBadge } from "@/components/shell/demo-badge";
import { NavLinks } from "@/components/shell/nav-links";
import { UserMenu } from "@/components/shell/user-menu";
import { getViewer } from "@/lib/auth/access";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Routelens", template: "%s · Routelens" },
  description:
    "What your agents' tool routing decides: dropped tokens, reinstatements, empty palettes.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/** The shell: navigation and the user's menu for a signed-in user, the brand alone otherwise. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page depends on who is asking (and carries the request's CSP nonce): render per
  // request. A database that cannot answer shows the brand alone; the page reports the error.
  await connection();
  const viewer = await getViewer().catch(() => null);
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="shell-header">
          <Link href="/" className="brand">
            Routelens
          </Link>
          {viewer ? (
            <>
              <NavLinks />
              <Suspense fallback={null}>
                <DemoBadge />
              </Suspense>
              <UserMenu viewer={viewer} />
            </>
          ) : null}
        </header>
        <main id="main" className="shell-main">
          {children}
        </main>
      </body>
    </html>
  );
}
