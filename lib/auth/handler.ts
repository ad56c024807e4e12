/**
 * The auth API's HTTP entry (`/api/auth/*`), around the library's handler:
 *
 * - sign-in with a password passes the sign-in throttle first (429 + Retry-After), and a
 *   failure is counted and written to the audit log;
 * - one-time links are made only on the server (first run, `npm run users`), so their
 *   request endpoint is not served over HTTP.
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

const signInBody = z.object({ email: z.string().max(320) });

const throttle = new SignInThrottle();

export async function handleAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (NOT_SERVED.has(path)) {
    return Response.json({ message: "Not found." }, { status: 404 });
  }
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
