import 'server-only';
import { hash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { CLIENT_HEADER, PROOF_HEADER, serverProof, UNKNOWN_CLIENT } from './identity';

// Reads, inside Next's bundle, what the server (serving.ts, with identity.ts) wrote on each request.

const digest = (value: string) => hash('sha256', value, 'buffer');

/** The digest of this process's proof, made once (the proof never changes while the process runs). */
let expected: { proof: string; digest: Buffer } | undefined;
function expectedDigest(): Buffer {
  const proof = serverProof();
  if (expected?.proof !== proof) expected = { proof, digest: digest(proof) };
  return expected.digest;
}

/** The client a request comes from, as the server resolved it; `local` when the server did not say so. */
export function clientOf(headers: Headers): string {
  const value = headers.get(CLIENT_HEADER);
  if (!value || !isIP(value)) return UNKNOWN_CLIENT;
  const proof = headers.get(PROOF_HEADER);
  return proof && timingSafeEqual(digest(proof), expectedDigest()) ? value : UNKNOWN_CLIENT;
}
