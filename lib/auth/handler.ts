/**
 * The auth API's HTTP entry (`/api/auth/*`), around the library's handler:
 *
 * - sign-in with a password passes the sign-in throttle first (429 + Retry-After), and a
 *   failure is counted and written to the audit log;
 * - one-time links are made only on the server (first run, `npm run users`), so their
 *   request endpoint is not served over HTTP;
 * - a single sign-on whose callback ends in an error (the browser is sent back to /sign-in
 *   with `?error=<code>`) is written to the audit log as a failed sign-in.
 */
import { z } from "zod";
import { addressOf, recordAudit } from "./audit";
import { AUTH_BASE_PATH, getAuth } from "./server";
import { SignInThrottle } from "./sign-in-throttle";

const NOT_SERVED = new Set([
  `${AUTH_BASE_PATH}/sign-in/magic-link`,
  `${AUTH_BASE_PATH}/sign-up/email`,
]);
const PASSWORD_SIGN_IN = `${AUTH_BASE_PATH}/sign-in/email`;
const OAUTH_CALLBACKS = `${AUTH_BASE_PATH}/callback/`;

const signInBody = z.object({ email: z.string().max(320) });

const throttle = new SignInThrottle();

export async function handleAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (NOT_SERVED.has(path)) {
    return Response.json({ message: "Not found." }, { status: 404 });
  }
  if (path.startsWith(OAUTH_CALLBACKS)) return handleOAuthCallback(request);
  if (request.method !== "POST" || path !== PASSWORD_SIGN_IN) {
    return getAuth().handler(request);
  }
  const parsed = signInBody.safeParse(
    await request
      .clone()
      .json()
      .catch(() => null),
  );
  if (!parsed.success) return getAuth().handler(request);
  const email = parsed.data.email.trim().toLowerCase();
  const address = addressOf(request.headers) ?? "unknown";
  const wait = throttle.retryAfterSeconds(address, email);
  if (wait > 0) {
    return Response.json(
      { code: "TOO_MANY_ATTEMPTS", message: `Too many sign-in attempts. Try again in ${wait} s.` },
      { status: 429, headers: { "Retry-After": String(wait), "Cache-Control": "no-store" } },
    );
  }
  const response = await getAuth().handler(request);
  if (response.status === 401 || response.status === 403) {
    throttle.failed(address, email);
    await recordAudit({
      action: "sign-in-failed",
      target: email,
      detail: { method: "password", status: response.status },
      headers: request.headers,
    });
  }
  return response;
}

/**
 * The error code of a callback that sent the browser back without a session, or null (a
 * successful one sets the session cookie, whatever its destination's query says).
 */
function callbackError(response: Response, requestUrl: string): string | null {
  const location = response.headers.get("Location");
  if (response.status < 300 || response.status > 399 || !location) return null;
  const session = response.headers
    .getSetCookie()
    .some((cookie) => cookie.includes("session_token=") && !/max-age=0/i.test(cookie));
  if (session) return null;
  try {
    return new URL(location, requestUrl).searchParams.get("error")?.slice(0, 100) ?? null;
  } catch {
    return null;
  }
}

async function handleOAuthCallback(request: Request): Promise<Response> {
  const response = await getAuth().handler(request);
  const error = callbackError(response, request.url);
  if (error) {
    await recordAudit({
      action: "sign-in-failed",
      detail: { method: "single sign-on", error },
      headers: request.headers,
    });
  }
  return response;
}
