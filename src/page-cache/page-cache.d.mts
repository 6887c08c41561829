/** Next's page cache (page-cache.mjs): what the tests drive. */
export interface CacheValue {
  kind: string;
  html?: string;
  rscData?: Buffer;
  headers?: Record<string, string | string[] | number | undefined>;
  [field: string]: unknown;
}
export default class PageCache {
  get(key: string, context?: { kind?: string; tags?: string[]; softTags?: string[] }): Promise<{ value: CacheValue | null; lastModified: number } | null>;
  set(key: string, value: CacheValue | null, context?: { tags?: string[] }): Promise<void>;
  revalidateTag(tags: string | string[]): Promise<void>;
  resetRequestCache(): void;
}
export declare function pageCacheSize(): { entries: number; bytes: number };
export declare function pageCacheBytes(env?: NodeJS.ProcessEnv): number;
