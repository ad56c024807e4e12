/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ["pg", "@prisma/adapter-pg"],
  // `npm run dev` is opened as localhost or 127.0.0.1; allow both to load dev assets.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
};

export default nextConfig;
