import 'server-only';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * Who is asking, and which request this is. The front server (scripts/serve.ts) resolves both once
 * per request and passes them on in these headers, overwriting whatever the client sent, so rate
 * limits and logs downstream (in the front's own /v1 handling and inside Next) read the same values.
 */
export const CLIENT_HEADER = 'x-shop-client';
export const REQUEST_ID_HEADER = 'x-request-id';

/** Stands for the client when no front server resolved one (`next dev`, tests calling handlers directly). */
export const UNKNOWN_CLIENT = 'local';

/**
 * The client's address: the connection's, or behind a trusted load balancer the last
 * X-Forwarded-For entry (the one the balancer appended; earlier entries are the client's own claim).
 */
export function resolveClient(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    const last = entries[entries.length - 1]!.trim();
    if (isIP(last)) return normalize(last);
  }
  return socketAddress ? normalize(socketAddress) : UNKNOWN_CLIENT;
}

/** `::ffff:1.2.3.4` and `1.2.3.4` are one client. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * Proves that CLIENT_HEADER was set by the front, not by whoever sent the request: a random value
 * made once per process, known only inside it. The front sets it beside the client; without it
 * (a request that reached Next some other way: `next start` or `next dev` without the front, a
 * test calling a handler) the header is a claim, and a client could pick its own address for every
 * request and never meet a limit.
 */
export const FRONT_PROOF_HEADER = 'x-shop-front';

// On globalThis: the front (loaded by tsx) and Next's bundle each load their own copy of this
// module in the one process; both must read the same value.
const PROOF_KEY = Symbol.for('atelier-prints.front-proof');

/** This process's proof (made on first use). */
export function frontProof(): string {
  const holder = globalThis as { [PROOF_KEY]?: string };
  holder[PROOF_KEY] ??= randomBytes(32).toString('base64url');
  return holder[PROOF_KEY];
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The headers the front sets on every request it passes on: the client it resolved, and the proof that it did. */
export function frontHeaders(client: string): Record<string, string> {
  return { [CLIENT_HEADER]: client, [FRONT_PROOF_HEADER]: frontProof() };
}

/** The client a request comes from, as the front server resolved it; `local` when the front did not say so. */
export function clientOf(headers: Headers): string {
  const value = headers.get(CLIENT_HEADER);
  if (!value || !isIP(value)) return UNKNOWN_CLIENT;
  const proof = headers.get(FRONT_PROOF_HEADER);
  return proof && timingSafeEqual(digest(proof), digest(frontProof())) ? value : UNKNOWN_CLIENT;
}

const acceptableRequestId = /^[A-Za-z0-9._:-]{8,100}$/;

/** A load balancer's request id when it sent a sane one (so its logs and ours match), else a new one. */
export function requestIdFrom(given: string | null | undefined): string {
  return given && acceptableRequestId.test(given) ? given : randomUUID();
}
