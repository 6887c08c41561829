import 'server-only';
import type { Db } from '@/server/db/client';
import type { SearchNotifier } from '@/server/integrations/indexnow';
import { logger } from '@/server/logger';

export interface NotifyPayload {
  publishLogId: number | null;
  urls: string[];
}

export function parseNotifyPayload(payload: unknown): NotifyPayload {
  const p = (payload ?? {}) as Record<string, unknown>;
  const urls = Array.isArray(p.urls) ? p.urls.filter((u): u is string => typeof u === 'string') : [];
  return { publishLogId: typeof p.publishLogId === 'number' ? p.publishLogId : null, urls };
}

/**
 * Submits new page addresses to the search engines (IndexNow) after a publish run committed, and
 * notes on its publish-log row how many went out and what failed. A failure is logged and
 * recorded, never thrown: publishing does not depend on the search engines.
 */
export async function notifySearchEngines(db: Db, notifier: SearchNotifier | null, payload: unknown): Promise<{ submitted: number; errors: string[] }> {
  const { publishLogId, urls } = parseNotifyPayload(payload);
  if (!urls.length) return { submitted: 0, errors: [] };
  if (!notifier) {
    logger.info('seo.notify: IndexNow not configured (INDEXNOW_KEY, INDEXNOW_ENDPOINTS); %d addresses left to the sitemaps', urls.length);
    return { submitted: 0, errors: [] };
  }
  let errors: string[];
  try {
    errors = (await notifier.submit(urls)).errors;
  } catch (error) {
    errors = [error instanceof Error ? error.message : String(error)];
  }
  const submitted = errors.length ? 0 : urls.length;
  if (errors.length) logger.warn('seo.notify: IndexNow failed for %d addresses (publish log %s): %s', urls.length, publishLogId, errors.join('; '));
  if (publishLogId !== null) {
    await db.$executeRaw`
      UPDATE publish_log SET urls_notified = urls_notified + ${submitted},
             errors = errors || ${errors.map((e) => `indexnow: ${e}`.slice(0, 500))}::text[]
       WHERE id = ${publishLogId}`;
  }
  return { submitted, errors };
}
