import { db } from '@/server/db/client';
import { env, publicBaseUrl } from '@/server/env';
import { sitemapIndex } from '@/server/seo/sitemaps';
import { sitemapIndexXml } from '@/server/seo/xml';
import { withRequestLog } from '@/server/http/request-log';

export const dynamic = 'force-dynamic';

/** The sitemap index search engines read: one file per chunk of /v1/seo/sitemaps. */
export const GET = withRequestLog(async function GET(_request: Request) {
  return new Response(sitemapIndexXml(await sitemapIndex(db()), publicBaseUrl(env())), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' },
  });
});
