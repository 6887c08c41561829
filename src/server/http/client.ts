import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { CLIENT_HEADER, FRONT_PROOF_HEADER, frontProof, UNKNOWN_CLIENT } from '@/front/identity';

// Reads, inside Next's bundle, what the front (src/front/identity.ts) wrote on each request.

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The client a request comes from, as the front server resolved it; `local` when the front did not say so. */
export function clientOf(headers: Headers): string {
  const value = headers.get(CLIENT_HEADER);
  if (!value || !isIP(value)) return UNKNOWN_CLIENT;
  const proof = headers.get(FRONT_PROOF_HEADER);
  return proof && timingSafeEqual(digest(proof), digest(frontProof())) ? value : UNKNOWN_CLIENT;
}
