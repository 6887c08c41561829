import { createHash } from 'node:crypto';
import { afterEach, expect, test } from 'vitest';
import PageCache, { pageCacheSize } from '@/page-cache/page-cache.mjs';

// Next's page cache (src/page-cache/page-cache.mjs) driven the way Next drives it: a new handler per
// request, pages stored with their headers, `unstable_cache` data with its tags.

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const inline = 'self.__next_f.push([1,"hello"])';
const page = (body = '', tags = '_N_T_/layout,_N_T_/[locale]/layout,_N_T_/[locale]/artworks/[slug]/page,_N_T_/en/artworks/x') => ({
  kind: 'APP_PAGE',
  html: `<!DOCTYPE html><html><body>${body}<script>${inline}</script><script src="/_next/static/a.js"></script></body></html>`,
  rscData: Buffer.from('0:{}'),
  headers: { 'x-next-cache-tags': tags } as Record<string, string>,
  status: 200,
});

afterEach(() => {
  delete process.env.PAGE_CACHE_MB;
  delete process.env.GOOGLE_CLIENT_ID;
});

test('a stored page carries its policy: the hash of each inline script, on the very object Next serves the first answer from', async () => {
  // Read from the settings on the first page stored.
  process.env.GOOGLE_CLIENT_ID = 'x.apps.googleusercontent.com';
  const value = page();
  await new PageCache().set('/en/artworks/x', value, {});
  const policy = String(value.headers['content-security-policy']);
  expect(policy).toMatch(new RegExp(`^default-src 'self'; script-src 'self' ${sha(inline).replace(/[+/]/g, '\\$&')}; `));
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(policy).toContain("form-action 'self' https://accounts.google.com");

  // A later request, another handler: the same headers come back.
  const again = await new PageCache().get('/en/artworks/x', { kind: 'APP_PAGE' });
  expect(again?.value?.headers?.['content-security-policy']).toBe(policy);
});

test('revalidating a tag expires the pages and data that carry it, and only those', async () => {
  const cache = new PageCache();
  await cache.set('/en/artworks/a', page('', '_N_T_/[locale]/artworks/[slug]/page,_N_T_/en/artworks/a'), {});
  await cache.set('/en', page('', '_N_T_/[locale]/page,_N_T_/en'), {});
  await cache.set('data-1', { kind: 'FETCH', data: { body: '[]' } }, { tags: ['browse-artist-options'] });
  await cache.set('data-2', { kind: 'FETCH', data: { body: '[]' } }, { tags: ['other'] });

  await new PageCache().revalidateTag(['_N_T_/[locale]/page']);
  expect(await cache.get('/en', { kind: 'APP_PAGE' })).toBeNull();
  expect(await cache.get('/en/artworks/a', { kind: 'APP_PAGE' })).not.toBeNull();

  await cache.revalidateTag('browse-artist-options');
  expect(await cache.get('data-1', { kind: 'FETCH', tags: ['browse-artist-options'] })).toBeNull();
  expect(await cache.get('data-2', { kind: 'FETCH', tags: ['other'] })).not.toBeNull();
  // revalidatePath on a page expires the data read under it (its implicit tags come with the read).
  await cache.revalidateTag('_N_T_/en/custom');
  expect(await cache.get('data-2', { kind: 'FETCH', tags: ['other'], softTags: ['_N_T_/en/custom'] })).toBeNull();

  // Stored again after the revalidation: fresh.
  await cache.set('/en', page('', '_N_T_/[locale]/page,_N_T_/en'), {});
  expect(await cache.get('/en', { kind: 'APP_PAGE' })).not.toBeNull();
});

test('memory stays under PAGE_CACHE_MB: the least recently used pages go first', async () => {
  process.env.PAGE_CACHE_MB = '1';
  const cache = new PageCache();
  const big = 'x'.repeat(300 * 1024);
  await cache.set('/en/artworks/1', page(big), {});
  await cache.set('/en/artworks/2', page(big), {});
  await cache.set('/en/artworks/3', page(big), {});
  // Read 1, so 2 is now the least recently used.
  expect(await cache.get('/en/artworks/1', { kind: 'APP_PAGE' })).not.toBeNull();
  await cache.set('/en/artworks/4', page(big), {});
  expect(await cache.get('/en/artworks/2', { kind: 'APP_PAGE' })).toBeNull();
  for (const key of ['/en/artworks/1', '/en/artworks/3', '/en/artworks/4']) expect(await cache.get(key, { kind: 'APP_PAGE' })).not.toBeNull();
  expect(pageCacheSize().bytes).toBeLessThanOrEqual(1024 * 1024);
  // Larger than the whole cache: not kept at all.
  await cache.set('/en/artworks/huge', page('y'.repeat(2 * 1024 * 1024)), {});
  expect(await cache.get('/en/artworks/huge', { kind: 'APP_PAGE' })).toBeNull();
});
