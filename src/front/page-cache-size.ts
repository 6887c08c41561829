/**
 * The page cache's memory, PAGE_CACHE_MB (default 128), in bytes: read by Next's page cache
 * (page-cache.ts) and by the front, whose compressed pages take a quarter of it more
 * (compressed-pages.ts). Its own module, because page-cache.ts is its own build (loaded by Next)
 * and the front must not load a second copy of that store.
 */
export function pageCacheBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PAGE_CACHE_MB ?? 128);
  return (Number.isFinite(mb) && mb >= 0 ? mb : 128) * 1024 * 1024;
}
