import { env } from '@/server/env';
import { withRequestLog } from '@/server/http/request-log';

export const dynamic = 'force-dynamic';

/**
 * The IndexNow key file: `/<INDEXNOW_KEY>.txt` (rewritten here by next.config.mjs) answers the key
 * as plain text, which is how search engines check that a submission came from this host.
 */
export const GET = withRequestLog(async (_request: Request, context: { params: Promise<{ file: string }> }) => {
  const { file } = await context.params;
  const key = env().INDEXNOW_KEY;
  if (!key || file !== `${key}.txt`) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(key, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' } });
});
