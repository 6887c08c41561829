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

/** Attempts at one run's submission before it is left to the sitemaps (each failure is a line of the run's log). */
export const NOTIFY_ATTEMPTS = 5;

/** A submission that failed and is to be tried again: the job engine retries it with its back-off. */
export class SearchEnginesFailed extends Error {
  override name = 'SearchEnginesFailed';
}

/**
 * Submits new page addresses to the search engines (IndexNow) after a publish run committed, and
 * notes on its publish-log row how many went out and what failed. A failure is recorded, then
 * thrown, so the outbox (or Inngest) tries again with its back-off, NOTIFY_ATTEMPTS times at most
 * as the run's log counts them; then it is logged and left to the sitemaps. Publishing never
 * depends on the search engines: the works are public already.
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
    const [row] = await db.$queryRaw<{ failures: number }[]>`
      UPDATE publish_log SET urls_notified = urls_notified + ${submitted},
             errors = errors || ${errors.map((e) => `indexnow: ${e}`.slice(0, 500))}::text[]
       WHERE id = ${publishLogId}
      RETURNING (SELECT count(*)::int FROM unnest(errors) AS e WHERE e LIKE 'indexnow: %') AS failures`;
    if (errors.length && (row?.failures ?? NOTIFY_ATTEMPTS) < NOTIFY_ATTEMPTS) {
      throw new SearchEnginesFailed(`IndexNow failed (attempt ${row!.failures} of ${NOTIFY_ATTEMPTS}), tried again later: ${errors.join('; ')}`);
    }
    if (errors.length) logger.warn('seo.notify: IndexNow failed %d times for publish log %s; the addresses are left to the sitemaps', NOTIFY_ATTEMPTS, publishLogId);
  }
  return { submitted, errors };
}
