import { db } from '@/server/db/client';
import { DomainError } from '@/server/errors';
import { env, publicBaseUrl } from '@/server/env';
import { sitemapChunk } from '@/server/seo/sitemaps';
import { urlSetXml } from '@/server/seo/xml';
import { withRequestLog } from '@/server/http/request-log';

export const dynamic = 'force-dynamic';

/** One chunk as a sitemap file, named `<type>-<chunk>.xml` by the index. */
export const GET = withRequestLog(async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const match = /^([a-z]+)-([1-9][0-9]{0,5})\.xml$/.exec((await params).file);
  if (!match) return new Response('Not found', { status: 404 });
  try {
    const chunk = await sitemapChunk(db(), publicBaseUrl(env()), match[1]!, Number(match[2]));
    return new Response(urlSetXml(chunk), {
      headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' },
    });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return new Response('Not found', { status: 404 });
    throw error;
  }
});
