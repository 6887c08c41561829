import createMiddleware from 'next-intl/middleware';
import { NextRequest, NextResponse } from 'next/server';
import { formActionSources, noncePagePolicy } from './page-cache/page-policy.mjs';
import { routing } from './i18n/routing';
import { env } from './server/env';
import { isCachedPage } from './server/http/cached-pages';

const intl = createMiddleware(routing);

/** A first path segment shaped like a language tag (`xx`, `pt-br`) that is not one of ours. */
const localeShaped = /^[a-z]{2}(?:-[a-z0-9]{2,4})?$/i;

const development = process.env.NODE_ENV === 'development';

const isStaffPath = (pathname: string) => pathname === '/staff' || pathname.startsWith('/staff/');

/**
 * Every page request passes here (Next's proxy, before the page renders):
 *
 * - **Its policy.** A page rendered for this request gets a fresh nonce: set on the request's
 *   `Content-Security-Policy` header, Next puts it on every script it writes, and the answer says
 *   the same policy. A page Next answers from its page cache gets its policy (script hashes) from
 *   there instead (src/page-cache/page-cache.mjs; which pages: src/server/http/cached-pages.ts). Under
 *   `npm run dev` no page is cached: every page gets a nonce (and `'unsafe-eval'`, for React's
 *   development tooling).
 * - **Its language** (the shop's pages, not the staff dashboard's, which has its own locale
 *   segment and cookie path): `/` answers 302 (not next-intl's 307) to the best language from the
 *   NEXT_LOCALE cookie or Accept-Language; an unknown language prefix such as `/xx/...` is passed
 *   through untouched so `[locale]/layout.tsx` answers 404, instead of being redirected to `/en/xx/...`.
 */
export default function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // In development Next caches no page: every page is rendered for its request.
  const policy = development || !isCachedPage(pathname) ? noncePolicy() : undefined;
  const requestHeaders = new Headers(request.headers);
  if (policy) requestHeaders.set('content-security-policy', policy);
  const passOn = () => NextResponse.next({ request: { headers: requestHeaders } });

  let response: NextResponse;
  const first = pathname.split('/')[1] ?? '';
  if (isStaffPath(pathname) || (first && localeShaped.test(first) && !(routing.locales as readonly string[]).includes(first))) {
    response = passOn();
  } else {
    // next-intl passes the request's headers on to the page, the policy with them.
    response = intl(policy ? new NextRequest(request, { headers: requestHeaders }) : request);
    if (pathname === '/' && response.status === 307) {
      const redirect = NextResponse.redirect(response.headers.get('location')!, 302);
      response.headers.forEach((value, key) => {
        if (key !== 'location') redirect.headers.append(key, value);
      });
      response = redirect;
    }
  }
  if (policy) response.headers.set('Content-Security-Policy', policy);
  return response;
}

function noncePolicy(): string {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
  return noncePagePolicy(nonce, formActionSources(env()), development);
}

export const config = {
  // Pages only: not /v1, /api, artwork images (/images), the sitemaps, Next internals and paths with
  // a dot (favicon.svg, robots.txt, ...).
  matcher: ['/((?!v1|api|images/|sitemaps/|_next|_vercel|.*\\..*).*)'],
};
