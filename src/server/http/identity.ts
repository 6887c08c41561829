import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import { BlockList, isIP } from 'node:net';

/**
 * Who is asking, and which request this is. The server (server.mjs, through serving.ts) resolves
 * both once per request and passes them on in these headers, overwriting whatever the client sent,
 * so rate limits and logs downstream (the /v1 handler and Next's pages and route handlers) read the
 * same values. Next may load this module more than once per process (its proxy and its pages are
 * bundled apart): it keeps no state of its own but the proof below, which lives on globalThis.
 */
export const CLIENT_HEADER = 'x-shop-client';
export const REQUEST_ID_HEADER = 'x-request-id';

/** Stands for the client when the server resolved none (a bare `next dev`, tests calling handlers directly). */
export const UNKNOWN_CLIENT = 'local';

/**
 * TRUST_PROXY: which proxies in front of the shop are believed when they append the address they
 * were called from to X-Forwarded-For. A number of hops (0: none, the connection's address is the
 * client; 1: one load balancer; 2: a CDN and a load balancer), or the networks the proxies call
 * from (CIDRs), however many of them a request passes.
 */
export type TrustProxy = number | readonly string[];

/**
 * The client's address: walking from the shop outward (the connection, then X-Forwarded-For from
 * right to left, each entry appended by the proxy before), the first hop that is not a trusted
 * proxy, or the leftmost entry when every hop is. Entries left of it are claims of the client's
 * own, never believed. An entry that is no address stops the walk at the proxy that passed it.
 */
export function resolveClient(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trust: TrustProxy): string {
  const forwarded = forwardedFor ? (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((entry) => entry.trim()) : [];
  const hops = [socketAddress ?? UNKNOWN_CLIENT, ...forwarded.reverse()].map(normalize);
  let at = 0;
  while (at + 1 < hops.length && isIP(hops[at + 1]!) && isTrustedHop(hops[at]!, at, trust)) at++;
  return hops[at]!;
}

/** Whether `address`, the `hop`-th from the shop (0: the connection itself), is a proxy TRUST_PROXY believes. */
export function isTrustedHop(address: string, hop: number, trust: TrustProxy): boolean {
  if (typeof trust === 'number') return hop < trust;
  const family = isIP(normalize(address));
  return family !== 0 && networksOf(trust).check(normalize(address), family === 6 ? 'ipv6' : 'ipv4');
}

/** TRUST_PROXY's text: `0`/`false`/unset, `1`/`true`, a number of hops, or comma-separated networks; undefined when malformed. */
export function parseTrustProxy(text: string | undefined): TrustProxy | undefined {
  const value = text?.trim() ?? '';
  if (/^(|0|false|no|off)$/i.test(value)) return 0;
  if (/^(true|yes|on)$/i.test(value)) return 1;
  if (/^\d+$/.test(value)) return Number(value) <= MAX_TRUSTED_HOPS ? Number(value) : undefined;
  const networks = value.split(',').map((entry) => entry.trim());
  return networks.every((entry) => subnetOf(entry) !== undefined) ? networks : undefined;
}

/** More proxies than this in a row is a mistyped setting, not a deployment. */
const MAX_TRUSTED_HOPS = 20;

/** `10.0.0.0/8`, `2001:db8::/32`, or one address (a network of one). */
function subnetOf(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', bits, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return undefined;
  const prefix = bits === undefined ? (version === 6 ? 128 : 32) : Number(bits);
  if (prefix > (version === 6 ? 128 : 32)) return undefined;
  return { address, prefix, family: version === 6 ? 'ipv6' : 'ipv4' };
}

// One BlockList per configured list (the front checks every request against it).
const compiledNetworks = new WeakMap<readonly string[], BlockList>();
function networksOf(networks: readonly string[]): BlockList {
  let list = compiledNetworks.get(networks);
  if (!list) {
    list = new BlockList();
    for (const entry of networks) {
      const subnet = subnetOf(entry);
      if (subnet) list.addSubnet(subnet.address, subnet.prefix, subnet.family);
    }
    compiledNetworks.set(networks, list);
  }
  return list;
}

/** `::ffff:1.2.3.4` and `1.2.3.4` are one client. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * Proves that CLIENT_HEADER was set by the server, not by whoever sent the request: a random value
 * made once per process, known only inside it. The server sets it beside the client; without it (a
 * request that reached Next some other way: a bare `next start`, a test calling a handler) the
 * header is a claim, and a client could pick its own address for every request and never meet a limit.
 */
export const PROOF_HEADER = 'x-shop-proof';

// On globalThis: every copy of this module in the process must read the same value.
const PROOF_KEY = Symbol.for('atelier-prints.client-proof');

/** This process's proof (made on first use). */
export function serverProof(): string {
  const holder = globalThis as { [PROOF_KEY]?: string };
  holder[PROOF_KEY] ??= randomBytes(32).toString('base64url');
  return holder[PROOF_KEY];
}

/** The headers the server sets on every request it passes on: the client it resolved, and the proof that it did. */
export function identityHeaders(client: string): Record<string, string> {
  return { [CLIENT_HEADER]: client, [PROOF_HEADER]: serverProof() };
}

const acceptableRequestId = /^[A-Za-z0-9._:-]{8,100}$/;

/** A load balancer's request id when it sent a sane one (so its logs and ours match), else a new one. */
export function requestIdFrom(given: string | null | undefined): string {
  return given && acceptableRequestId.test(given) ? given : randomUUID();
}
