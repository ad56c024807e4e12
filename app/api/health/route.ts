import { isDatabaseReachable } from "@/lib/db/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const ok = await isDatabaseReachable();
  return Response.json(
    { status: ok ? "ok" : "degraded", database: ok ? "ok" : "unreachable" },
    { status: ok ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
