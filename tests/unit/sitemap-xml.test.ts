import { expect, test } from 'vitest';
import { sitemapIndexXml, urlSetXml } from '@/server/seo/xml';

test('the sitemap index names one file per chunk, under the site address', () => {
  const xml = sitemapIndexXml(
    { chunkSize: 5000, sitemaps: [{ type: 'artworks', chunk: 2, entries: 10, lastModified: '2026-11-22T00:00:00.000Z', path: '/v1/seo/sitemaps/artworks/2' }] },
    'https://shop.example',
  );
  expect(xml).toContain('<sitemap><loc>https://shop.example/sitemaps/artworks-2.xml</loc><lastmod>2026-11-22T00:00:00.000Z</lastmod></sitemap>');
});

test('a chunk lists each page with its hreflang alternates, escaped', () => {
  const xml = urlSetXml({
    type: 'artworks',
    chunk: 1,
    entries: [{ loc: 'https://shop.example/en/artworks/a&b', lastModified: null, alternates: [{ hreflang: 'ja', href: 'https://shop.example/ja/artworks/a&b' }] }],
  });
  expect(xml).toContain('<loc>https://shop.example/en/artworks/a&#38;b</loc>');
  expect(xml).toContain('<xhtml:link rel="alternate" hreflang="ja" href="https://shop.example/ja/artworks/a&#38;b"/>');
  expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
});
