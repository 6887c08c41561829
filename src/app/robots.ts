import type { MetadataRoute } from 'next';
import { siteBaseUrl } from '@/server/seo/router';

export const dynamic = 'force-dynamic';

export default function robots(): MetadataRoute.Robots {
  return { rules: [{ userAgent: '*', allow: '/', disallow: ['/v1/', '/api/'] }], sitemap: `${siteBaseUrl()}/sitemap.xml` };
}
