import { getConfig, putConfig } from "@/lib/configs/api";

export const dynamic = "force-dynamic";

/** A tenant's current routing config (`?version=cfg_…`: that version). */
export async function GET(request: Request, { params }: RouteContext<"/api/configs/[tenant]">) {
  return getConfig(request, (await params).tenant);
}

/** Saves a new version of the tenant's routing config: `{"config": {…}, "note": "…"}`. */
export async function PUT(request: Request, { params }: RouteContext<"/api/configs/[tenant]">) {
  return putConfig(request, (await params).tenant);
}
