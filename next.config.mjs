/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The server bundle is not minified. The minifier inlines a function called from one place
  // into its caller, where one that calls itself or has several statements became a new
  // closure on every call — the protobuf walk once per OTLP export, helpers of the span mapping
  // once per span — and V8 optimised each new closure afresh: a ninth of the server's CPU went
  // to compiling the same code again during `npm run bench:otlp` (docs/PERFORMANCE.md,
  // "2026-12-06, night: code compiled again for every export"). Readable server code also gives
  // CPU profiles their function names.
  experimental: { serverMinification: false },
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "pg-boss"],
  // `npm run dev` is opened as localhost or 127.0.0.1; allow both to load dev assets.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  // The ingest endpoints are not behind the proxy (proxy.ts says why); their answers carry the
  // headers every response has (lib/security-headers.ts), with a CSP for JSON.
  async headers() {
    return [
      ...["/api/ingest", "/api/otlp/v1/traces"].map((source) => ({
        source,
        headers: [
          { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      })),
    ];
  },
};

export default nextConfig;
