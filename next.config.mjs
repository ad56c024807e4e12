/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
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
