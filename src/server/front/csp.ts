import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of a page, computed from the page itself. Pages are ISR-cached, so a
 * per-request nonce would make every page dynamic; instead each inline script Next wrote into the
 * HTML (its RSC payload pushes, the bootstrap) is allowed by the hash of its exact text, and
 * nothing else inline may run.
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

function attributesOf(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of source.matchAll(attribute)) {
    const name = match[1]!.toLowerCase();
    if (!found.has(name)) found.set(name, match[2] ?? match[3] ?? match[4] ?? '');
  }
  return found;
}

/**
 * The `'sha256-…'` source of every inline script the browser would execute, in document order
 * without repeats. Scripts with `src` load from a URL (allowed by `'self'`), and data blocks such
 * as JSON-LD (`type="application/ld+json"`) never run, so neither needs a hash.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(scriptElement)) {
    const attrs = attributesOf(match[1]!);
    if (attrs.has('src')) continue;
    if (!scriptTypes.has((attrs.get('type') ?? '').trim().toLowerCase())) continue;
    // The HTML parser turns CRLF and lone CR into LF before the script's text exists; the browser
    // hashes that text, so the same normalisation comes first here.
    const text = match[2]!.replace(/\r\n?/g, '\n');
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** Where the shop's forms may post or be redirected: itself, and Google's sign-in issuer. */
export function formActionSources(e: { GOOGLE_CLIENT_ID?: string; GOOGLE_ISSUER: string }): string[] {
  const sources = ["'self'"];
  // NextAuth's Google sign-in is a form POST to /api/auth/signin/google answered with a redirect to
  // the issuer's authorization endpoint; Chromium applies form-action to that redirect too.
  if (e.GOOGLE_CLIENT_ID) sources.push(new URL(e.GOOGLE_ISSUER).origin);
  return sources;
}

/** The page's whole policy: scripts from the shop and the page's own hashed inline scripts only. */
export function pagePolicy(html: string, formActions: readonly string[]): string {
  return [
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`.trimEnd(),
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
