import { randomUUID } from 'node:crypto';
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

/** The client a request comes from, as the front server resolved it. */
export function clientOf(headers: Headers): string {
  const value = headers.get(CLIENT_HEADER);
  return value && isIP(value) ? value : UNKNOWN_CLIENT;
}

const acceptableRequestId = /^[A-Za-z0-9._:-]{8,100}$/;

/** A load balancer's request id when it sent a sane one (so its logs and ours match), else a new one. */
export function requestIdFrom(given: string | null | undefined): string {
  return given && acceptableRequestId.test(given) ? given : randomUUID();
}
