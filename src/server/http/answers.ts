import 'server-only';

// What the server's own /v1 path (serving.ts) and the app's route handlers (inside Next's router)
// answer alike; both import it from here, so the two cannot drift.

/** The 500 body of the contract, naming the request id so a customer can quote it; never the cause. */
export function internalErrorBody(requestId: string) {
  return { error: { code: 'internal' as const, message: `Something went wrong on our side. Please try again later (request ${requestId}).` } };
}

/**
 * Headers every answer carries. Each surface adds its own Content-Security-Policy: pages get theirs
 * from src/proxy.ts or the page cache, /v1 one that allows nothing. HSTS only when the shop is
 * served over https: sent over plain http it would be ignored anyway, and on a LAN address it could
 * pin a browser to https that is not there.
 */
export function baseSecurityHeaders(settings: { PUBLIC_BASE_URL?: string }): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // No other site's window keeps a handle on ours (Google sign-in and Stripe are redirects, not popups).
    'Cross-Origin-Opener-Policy': 'same-origin',
    // Another site may not load what we answer as an image or script (an order lookup included);
    // the artwork and showcase pictures, which partners show, say `cross-origin` (serving.ts).
    'Cross-Origin-Resource-Policy': 'same-origin',
    // The wall preview may ask for the camera (ours only); nothing else the shop never uses.
    'Permissions-Policy': 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()',
  };
  if (settings.PUBLIC_BASE_URL?.startsWith('https://')) headers['Strict-Transport-Security'] = 'max-age=63072000; includeSubDomains';
  return headers;
}

/**
 * A /v1 answer as serving.ts writes it: status, headers and the whole body, without a fetch
 * Response. Building a Response makes a web stream and header objects, and serving.ts then reads
 * them back: about a quarter of the CPU of a catalog answer from the response cache. The public
 * catalog reads and the procedures' JSON answers are made as this; handleRest makes a Response of
 * it for its other callers (Next's route handler under `npm run dev`, the tests).
 */
export interface PlainAnswer {
  status: number;
  /** Lower-case names, as a fetch Headers gives them; never Set-Cookie (`cookies`). */
  headers: Record<string, string>;
  /** Each Set-Cookie apart. */
  cookies: string[];
  /** Null: no body (HEAD, 304). */
  body: Uint8Array | string | null;
}

/** What the app reads of a request to know who asks for what: its method, address and headers. */
export type RequestHead = Pick<Request, 'method' | 'url' | 'headers'>;

/**
 * A /v1 request as serving.ts hands it over: its head, and the fetch Request (its body streamed)
 * made only when something needs the whole of it (a JSON body, a hand-written handler). A fetch
 * Request costs an abort signal and a stream to build, for every request: about 4 % of a catalog
 * read's CPU, which a read of the catalog never uses.
 */
export interface RestRequest extends RequestHead {
  /** The whole request; the same one on every call. */
  whole(): Request;
}
