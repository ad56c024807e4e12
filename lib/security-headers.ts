/**
 * The headers every response carries (SPEC §7), set by the proxy (`proxy.ts`). Pages get a
 * Content-Security-Policy with a fresh nonce per request: Next.js puts it on the scripts it
 * renders, and no other script runs. Styles may be inline (the charts set them).
 */

/** The CSP of a response; `nonce` is base64, new for every request. */
export function contentSecurityPolicy(
  nonce: string,
  { development = false, https = false }: { development?: boolean; https?: boolean } = {},
): string {
  const directives = [
    "default-src 'self'",
    // 'strict-dynamic' lets the nonced bootstrap load the app's own chunks; development
    // needs eval for fast refresh.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${development ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** The headers besides the CSP. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/** Sent over https only: browsers keep to https for a year. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";
