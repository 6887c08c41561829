import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { formActionSources, formActionSourcesOfEnvironment, hashedPagePolicy, inlineScriptHashes, noncePagePolicy } from '@/page-cache/page-policy.mjs';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// Shaped like what Next 16 writes for an App Router page: external chunks, the RSC payload pushes,
// JSON-LD from src/components/json-ld.tsx, attributes in both quote styles.
const bootstrap = '(self.__next_f=self.__next_f||[]).push([0])';
const payload = 'self.__next_f.push([1,"1:\\"$Sreact.fragment\\"\\n2:I[\\"/_next/static/chunks/0a.js\\"]\\n"])';
const withLessThan = 'self.__next_f.push([1,"a \\u003c/script> b < c && d > e"])';
const page = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="stylesheet" href="/_next/static/chunks/1b.css" data-precedence="next"/>',
  '<script src="/_next/static/chunks/turbopack-0c.js" async=""></script>',
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"VisualArtwork","name":"The Starry Night"}</script>',
  '</head><body><main>…</main>',
  `<script>${bootstrap}</script>`,
  `<script>${payload}</script>`,
  `<script data-note='a > b' nonce="">${withLessThan}</script>`,
  `<script>${payload}</script>`,
  '</body></html>',
].join('');

test('every inline script Next writes is hashed, once, in document order', () => {
  expect(inlineScriptHashes(page)).toEqual([sha(bootstrap), sha(payload), sha(withLessThan)]);
});

test('scripts with src and data blocks such as JSON-LD get no hash', () => {
  const html = [
    '<script src="/a.js"></script>',
    '<script type="application/ld+json">{"a":1}</script>',
    '<script type="application/json" id="data">{"b":2}</script>',
    '<script type="text/plain">not code</script>',
    "<script src='/b.js' type=module></script>",
  ].join('');
  expect(inlineScriptHashes(html)).toEqual([]);
});

test('what a browser runs is hashed: modules, JavaScript types in any case, upper-case tags, empty scripts', () => {
  const html = '<script type="module">import "/x.js"</script><SCRIPT TYPE="Text/JavaScript">b()</SCRIPT ><script type=" text/javascript ">c()</script><script></script>';
  expect(inlineScriptHashes(html)).toEqual([sha('import "/x.js"'), sha('b()'), sha('c()'), sha('')]);
});

test('line breaks are hashed as the HTML parser hands them to the browser (CRLF and CR become LF)', () => {
  expect(inlineScriptHashes('<script>a()\r\nb()\rc()</script>')).toEqual([sha('a()\nb()\nc()')]);
});

test('non-ASCII text is hashed as UTF-8', () => {
  expect(inlineScriptHashes('<script>document.title="星月夜 — Nuit étoilée"</script>')).toEqual([
    `'sha256-${createHash('sha256').update(Buffer.from('document.title="星月夜 — Nuit étoilée"', 'utf8')).digest('base64')}'`,
  ]);
});

test("a cached page's policy allows its own scripts by hash and never unsafe-inline for scripts", () => {
  const policy = hashedPagePolicy(page, ["'self'"]);
  const directives = new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));
  expect(directives.get('script-src')).toEqual(["'self'", sha(bootstrap), sha(payload), sha(withLessThan)]);
  expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  expect(directives.get('base-uri')).toEqual(["'self'"]);
  expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(directives.get('connect-src')).toEqual(["'self'"]);
  expect(directives.get('form-action')).toEqual(["'self'"]);
  expect(hashedPagePolicy('<p>no scripts</p>', ["'self'"])).toMatch(/^default-src 'self'; script-src 'self'; /);
});

test('a page rendered for the request allows scripts with its nonce; unsafe-eval only in development', () => {
  const policy = noncePagePolicy('bm9uY2U=', ["'self'"]);
  expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'nonce-bm9uY2U='; style-src 'self' 'unsafe-inline'; /);
  expect(policy).not.toContain('unsafe-eval');
  expect(policy).toContain("frame-ancestors 'none'");
  expect(noncePagePolicy('bm9uY2U=', ["'self'"], true)).toMatch(/^default-src 'self'; script-src 'self' 'nonce-bm9uY2U=' 'unsafe-eval'; /);
});

test('forms may go to the Google issuer only when Google sign-in is configured', () => {
  expect(formActionSources({ GOOGLE_ISSUER: 'https://accounts.google.com' })).toEqual(["'self'"]);
  expect(formActionSources({ GOOGLE_CLIENT_ID: 'x.apps.googleusercontent.com', GOOGLE_ISSUER: 'https://accounts.google.com' })).toEqual([
    "'self'",
    'https://accounts.google.com',
  ]);
  expect(formActionSources({ GOOGLE_CLIENT_ID: 'x', GOOGLE_ISSUER: 'http://127.0.0.1:3108/issuer/path' })).toEqual(["'self'", 'http://127.0.0.1:3108']);
});

test("the page cache reads where forms may go from the process's settings as src/server/env.ts does: blank is unset, the issuer Google's by default", async () => {
  const { parseEnv } = await import('@/server/env');
  const cases: Record<string, string>[] = [
    {},
    { GOOGLE_CLIENT_ID: '  ' },
    { GOOGLE_CLIENT_ID: 'x.apps.googleusercontent.com' },
    { GOOGLE_CLIENT_ID: 'x', GOOGLE_ISSUER: 'http://127.0.0.1:3108/issuer' },
    { GOOGLE_CLIENT_ID: 'x', GOOGLE_ISSUER: ' ' },
  ];
  for (const settings of cases) {
    // The same answer as the proxy's, which reads the validated settings.
    expect(formActionSourcesOfEnvironment(settings), JSON.stringify(settings)).toEqual(formActionSources(parseEnv({ ...settings, NODE_ENV: 'test' })));
  }
  expect(formActionSourcesOfEnvironment({ GOOGLE_CLIENT_ID: 'x' })).toEqual(["'self'", 'https://accounts.google.com']);
});
