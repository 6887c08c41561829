import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an Authorization header carries the staff token. Compared in constant time (on digests,
 * so the length of the token leaks nothing either); with no ADMIN_TOKEN configured nothing passes.
 */
export function isStaff(authorization: string | null | undefined, adminToken: string | undefined): boolean {
  if (!adminToken || !authorization) return false;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(adminToken));
}
