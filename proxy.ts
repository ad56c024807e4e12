/**
 * Runs before routing, for every request:
 *
 * - **Security headers** (SPEC §7) on every response: a Content-Security-Policy with a fresh
 *   nonce (Next.js reads it from the request and puts it on its scripts), `frame-ancestors
 *   'none'`, nosniff, a referrer policy (`lib/security-headers.ts`).
 * - **Anonymous requests** to anything but the public paths are refused here without touching
 *   the database: pages redirect to `/sign-in`, APIs answer 401. This only looks for a session
 *   cookie; whether the session is valid, and which tenants it reads, is checked by the pages
 *   and routes themselves (`lib/auth/access.ts`). The configs API also takes an API key: a
 *   request to it with an `Authorization` header goes on to the route, which checks the key.
 * - **Run trace paths** that are not valid percent-encoding (`/runs/%`, `/runs/%ZZ`) name no
 *   run; Next.js would fail to decode the `[runId]` parameter and answer 500. They get the
 *   app's ordinary 404 page instead.
 */
import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import {
  acceptsApiKey,
  isPublicPath,
  REQUEST_PATH_HEADER,
  SESSION_COOKIE_PREFIX,
} from "@/lib/auth/paths";
import {
  contentSecurityPolicy,
  SECURITY_HEADERS,
  STRICT_TRANSPORT_SECURITY,
} from "@/lib/security-headers";

/** A path no page serves: rewriting to it renders `app/not-found.tsx` with status 404. */
const NOT_FOUND_PATH = "/runs/-/not-found";

function isDecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function withSecurityHeaders(response: NextResponse, csp: string, https: boolean): NextResponse {
  response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  if (https) response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  return response;
}

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const https = request.nextUrl.protocol === "https:";
  const nonce = btoa(crypto.randomUUID());
  const csp = contentSecurityPolicy(nonce, {
    development: process.env.NODE_ENV === "development",
    https,
  });

  if (pathname.startsWith("/runs/") && !isDecodable(pathname)) {
    return withSecurityHeaders(
      NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url)),
      csp,
      https,
    );
  }

  if (
    !isPublicPath(pathname) &&
    !(acceptsApiKey(pathname) && request.headers.has("authorization")) &&
    !getSessionCookie(request, { cookiePrefix: SESSION_COOKIE_PREFIX })
  ) {
    if (pathname.startsWith("/api/")) {
      return withSecurityHeaders(
        NextResponse.json(
          { error: "Sign in first: this endpoint needs a signed-in user." },
          { status: 401, headers: { "Cache-Control": "no-store" } },
        ),
        csp,
        https,
      );
    }
    const signIn = new URL("/sign-in", request.url);
    const next = `${pathname}${search}`;
    if (next !== "/") signIn.searchParams.set("next", next);
    return withSecurityHeaders(NextResponse.redirect(signIn), csp, https);
  }

  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  headers.set(REQUEST_PATH_HEADER, `${pathname}${search}`);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }), csp, https);
}

export const config = {
  // Everything but Next.js's own build assets, which carry no user data, and ingest (its own
  // and OTLP's): a proxy in front of a route makes Next.js buffer the request body before the
  // route sees it, and ingest reads its bodies as streams under a byte budget. Ingest answers
  // get the same headers from next.config.mjs; it needs no session.
  matcher: [{ source: "/((?!_next/static|_next/image|api/ingest$|api/otlp/v1/traces$).*)" }],
};
