import { connection } from "next/server";
import { getViewer, scopeOf } from "@/lib/auth/access";
import { hasDemoTenants } from "@/lib/db/queries/tenants";

/**
 * "demo data" when any tenant the viewer reads is flagged as demo traffic. A database that cannot answer
 * shows no badge rather than breaking the shell; the page below reports the error.
 */
export async function DemoBadge() {
  await connection();
  const viewer = await getViewer().catch(() => null);
  if (!viewer) return null;
  const demo = await hasDemoTenants(scopeOf(viewer)).catch(() => false);
  if (!demo) return null;
  return (
    <span className="badge badge-demo" title="Some tenants hold generated demo traffic">
      demo data
    </span>
  );
}
