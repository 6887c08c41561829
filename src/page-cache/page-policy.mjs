import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of the shop's pages: scripts from the shop itself and the inline
 * scripts Next wrote into the page (its RSC payload pushes, the bootstrap), nothing else inline.
 * A page rendered for each request gets a nonce (src/proxy.ts: Next puts it on every script it
 * writes); a page kept in the page cache cannot carry a nonce (every visitor gets the same HTML), so
 * its inline scripts are allowed by the hash of their exact text, computed once when the page is
 * stored (page-cache.mjs).
 *
 * Plain JavaScript (types in page-policy.d.mts): Next loads its page cache outside its bundle, as
 * it is, and src/proxy.ts shares these functions with it.
 */

/** `<script attrs>text</script>`; attribute values may contain `>` when quoted. */
const scriptElement = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;
const attribute = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Types a browser runs as script (HTML's "JavaScript MIME type essence match", plus modules). */
const scriptTypes = new Set([
  '',
  'module',
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

function attributesOf(source) {
  /** @type {Map<string, string>} */
  const found = new Map();
  for (const match of source.matchAll(attribute)) {
    const name = /** @type {string} */ (match[1]).toLowerCase();
    if (!found.has(name)) found.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return found;
}

/**
 * The `'sha256-…'` source of every inline script the browser would execute, in document order
 * without repeats. Scripts with `src` load from a URL (allowed by `'self'`), and data blocks such
 * as JSON-LD (`type="application/ld+json"`) never run, so neither needs a hash.
 */
export function inlineScriptHashes(html) {
  /** @type {Set<string>} */
  const hashes = new Set();
  for (const match of html.matchAll(scriptElement)) {
    const attrs = attributesOf(/** @type {string} */ (match[1]));
    if (attrs.has('src')) continue;
    if (!scriptTypes.has((attrs.get('type') ?? '').trim().toLowerCase())) continue;
    // The HTML parser turns CRLF and lone CR into LF before the script's text exists; the browser
    // hashes that text, so the same normalisation comes first here.
    const text = /** @type {string} */ (match[2]).replace(/\r\n?/g, '\n');
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** Google's own sign-in issuer, unless GOOGLE_ISSUER points a test elsewhere (src/server/env.ts). */
export const GOOGLE_ISSUER_DEFAULT = 'https://accounts.google.com';

/** Where the shop's forms may post or be redirected: itself, and Google's sign-in issuer. */
export function formActionSources(e) {
  const sources = ["'self'"];
  // NextAuth's Google sign-in is a form POST to /api/auth/signin/google answered with a redirect to
  // the issuer's authorization endpoint; Chromium applies form-action to that redirect too.
  if (e.GOOGLE_CLIENT_ID) sources.push(new URL(e.GOOGLE_ISSUER).origin);
  return sources;
}

/** A page's whole policy, given where its scripts may come from. */
function pagePolicy(scriptSources, formActions) {
  return [
    // Anything not named below (media, workers, frames, manifests) only from the shop itself.
    "default-src 'self'",
    ['script-src', "'self'", ...scriptSources].join(' '),
    // React and CSS modules set inline style attributes; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    `form-action ${formActions.join(' ')}`,
  ].join('; ');
}

/** The policy of a cached page: its own inline scripts by hash. */
export function hashedPagePolicy(html, formActions) {
  return pagePolicy(inlineScriptHashes(html), formActions);
}

/**
 * The policy of a page rendered for this request: scripts carrying its nonce. In development
 * React's tooling evaluates code (`'unsafe-eval'`); never in production.
 */
export function noncePagePolicy(nonce, formActions, development = false) {
  return pagePolicy([`'nonce-${nonce}'`, ...(development ? ["'unsafe-eval'"] : [])], formActions);
}

/**
 * formActionSources of the process's own settings, read as src/server/env.ts reads them (blank is
 * unset): the page cache runs outside Next's bundle and cannot load env.ts.
 */
export function formActionSourcesOfEnvironment(environment = process.env) {
  const set = (/** @type {string | undefined} */ value) => value?.trim() || undefined;
  return formActionSources({ GOOGLE_CLIENT_ID: set(environment.GOOGLE_CLIENT_ID), GOOGLE_ISSUER: set(environment.GOOGLE_ISSUER) ?? GOOGLE_ISSUER_DEFAULT });
}
