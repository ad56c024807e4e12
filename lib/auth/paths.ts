/**
 * Which paths answer without a signed-in user (SPEC §7), and the names the proxy and the access
 * check share. No server-only imports: the proxy reads this.
 */

/** The prefix of the session cookie (`routelens.session_token`, `__Secure-` over https). */
export const SESSION_COOKIE_PREFIX = "routelens";

/** The header the proxy passes on with the requested path and query. */
export const REQUEST_PATH_HEADER = "x-routelens-path";

/**
 * Exact public paths: health, ingest (own and OTLP), the published JSON Schemas, the sign-in
 * and first-run pages.
 */
const PUBLIC_PATHS = new Set([
  "/api/health",
  "/api/ingest",
  "/api/ingest/schema",
  "/api/routing-config/schema",
  "/api/otlp/v1/traces",
  "/sign-in",
  "/setup",
  "/icon.svg",
  "/favicon.ico",
  "/robots.txt",
]);

/** Public path prefixes: the auth API (sign-in, sign-out, SSO callbacks) and invitation links. */
const PUBLIC_PREFIXES = ["/api/auth/", "/invite/"];

export function isPublicPath(pathname: string): boolean {
  return (
    PUBLIC_PATHS.has(pathname) || PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix))
  );
}

/**
 * Paths that also accept an API key (`Authorization: Bearer …`) instead of a session: the
 * configs API, for CI pipelines. The proxy lets such a request through without a session
 * cookie; the route checks the key itself.
 */
const API_KEY_PREFIXES = ["/api/configs/"];

export function acceptsApiKey(pathname: string): boolean {
  return API_KEY_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}

/** A same-site path to return to after signing in, or `/` (never another site's URL). */
export function safeNextPath(path: string | null | undefined): string {
  if (!path?.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return "/";
  return path.slice(0, 2_000);
}

/**
 * Where a sign-in that fails on its way back (a one-time link used or expired, single sign-on
 * refused) sends the browser: the sign-in page, which says why from the `error` the auth
 * library adds, and which goes on to `next` once signed in. Sent to the app's own page `/`
 * instead, a browser without a session was sent on to a bare sign-in form.
 */
export function signInErrorPath(next: string): string {
  return next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`;
}
