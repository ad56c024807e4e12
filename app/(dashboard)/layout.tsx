import type { ReactNode } from "react";
import { requirePageAccess } from "@/lib/auth/access";

/**
 * Every dashboard page needs a signed-in user, and a tenant in its URL must be one they read.
 * Checked here, above the pages' loading states, so a refusal is a real redirect or 404.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await requirePageAccess();
  return children;
}
