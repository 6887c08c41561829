import type { MetadataRoute } from 'next';
import { env, publicBaseUrl } from '@/server/env';

export const dynamic = 'force-dynamic';

export default function robots(): MetadataRoute.Robots {
  return { rules: [{ userAgent: '*', allow: '/', disallow: ['/v1/', '/api/'] }], sitemap: `${publicBaseUrl(env())}/sitemap.xml` };
}
