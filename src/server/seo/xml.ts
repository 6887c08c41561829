import 'server-only';
import type { sitemapChunk, sitemapIndex } from './sitemaps';

/** The sitemaps protocol's XML, written from the same data /v1/seo/sitemaps serves. */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const chunkFileName = (type: string, chunk: number) => `${type}-${chunk}.xml`;

export function sitemapIndexXml(index: Awaited<ReturnType<typeof sitemapIndex>>, baseUrl: string): string {
  const items = index.sitemaps.map(
    (s) => `  <sitemap><loc>${escape(`${baseUrl}/sitemaps/${chunkFileName(s.type, s.chunk)}`)}</loc>${s.lastModified ? `<lastmod>${s.lastModified}</lastmod>` : ''}</sitemap>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}

export function urlSetXml(chunk: Awaited<ReturnType<typeof sitemapChunk>>): string {
  const urls = chunk.entries.map((entry) => {
    const links = entry.alternates.map((a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${escape(a.href)}"/>`).join('');
    return `  <url><loc>${escape(entry.loc)}</loc>${entry.lastModified ? `<lastmod>${entry.lastModified}</lastmod>` : ''}${links}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}
