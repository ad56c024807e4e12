import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { type ReactNode, Suspense } from "react";
import { DemoBadge } from "@/components/shell/demo-badge";
import { NavLinks } from "@/components/shell/nav-links";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Routelens", template: "%s · Routelens" },
  description:
    "What your agents' tool routing decides: dropped tokens, reinstatements, empty palettes.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
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
          <NavLinks />
          <Suspense fallback={null}>
            <DemoBadge />
          </Suspense>
        </header>
        <main id="main" className="shell-main">
          {children}
        </main>
      </body>
    </html>
  );
}
