import 'server-only';
import { type Env } from '@/server/env';

/**
 * Headers every answer carries, page or API. Each surface adds its own Content-Security-Policy:
 * pages a policy with script hashes (src/server/front), /v1 one that allows nothing.
 * HSTS only when the shop is served over https: sent over plain http it would be ignored anyway,
 * and on a LAN address it could pin a browser to https that is not there.
 */
export function baseSecurityHeaders(e: Pick<Env, 'PUBLIC_BASE_URL'>): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
  if (e.PUBLIC_BASE_URL?.startsWith('https://')) headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains';
  return headers;
}
