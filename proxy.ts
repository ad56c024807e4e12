/**
 * Runs before routing, for run trace paths only. A path segment that is not valid
 * percent-encoding (`/runs/%`, `/runs/%ZZ`, `/runs/%E0%A4%A`) names no run; Next.js would fail
 * to decode it as the `[runId]` parameter and answer 500. Such a path is answered here with
 * the app's ordinary 404 page instead.
 */
import { type NextRequest, NextResponse } from "next/server";

/** A path no page serves: rewriting to it renders `app/not-found.tsx` with status 404. */
const NOT_FOUND_PATH = "/runs/-/not-found";

export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    return NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url));
  }
}

export const config = { matcher: "/runs/:path+" };
