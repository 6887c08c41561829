import 'server-only';
import { fetchWithRetry, type RetryOptions } from './http';

/**
 * Search-engine notification through the IndexNow protocol: `POST <endpoint>` with
 * `{ host, key, keyLocation, urlList }`, at most 10,000 URLs a request, to every configured
 * endpoint (INDEXNOW_ENDPOINTS, INDEXNOW_KEY). The key file is served at `/<key>.txt`.
 */
export const INDEXNOW_MAX_URLS = 10_000;

export interface SearchNotifier {
  submit(urls: string[]): Promise<{ requests: number; errors: string[] }>;
}

export function indexNow(options: { endpoints: string[]; key: string; baseUrl: string; retry?: RetryOptions }): SearchNotifier {
  const base = new URL(options.baseUrl);
  return {
    async submit(urls) {
      const errors: string[] = [];
      let requests = 0;
      for (let i = 0; i < urls.length; i += INDEXNOW_MAX_URLS) {
        const urlList = urls.slice(i, i + INDEXNOW_MAX_URLS);
        for (const endpoint of options.endpoints) {
          requests++;
          try {
            await fetchWithRetry(
              endpoint,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json; charset=utf-8' },
                body: JSON.stringify({ host: base.host, key: options.key, keyLocation: `${base.origin}/${options.key}.txt`, urlList }),
              },
              { attempts: 3, timeoutMs: 30_000, ...options.retry },
            );
          } catch (error) {
            errors.push(`${new URL(endpoint).host}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      }
      return { requests, errors };
    },
  };
}
