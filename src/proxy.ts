import createMiddleware from 'next-intl/middleware';
import { NextResponse, type NextRequest } from 'next/server';
import { routing } from './i18n/routing';

const intl = createMiddleware(routing);

/** A first path segment shaped like a language tag (`xx`, `pt-br`) that is not one of ours. */
const localeShaped = /^[a-z]{2}(?:-[a-z0-9]{2,4})?$/i;

/**
 * Locale routing for the website. `/` answers 302 (not next-intl's 307) to the best language from
 * the NEXT_LOCALE cookie or Accept-Language; an unknown language prefix such as `/xx/...` is
 * passed through untouched so `[locale]/layout.tsx` answers 404, instead of being redirected to
 * `/en/xx/...`. The matcher keeps the REST API, internals and static files out entirely.
 */
export default function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const first = pathname.split('/')[1] ?? '';
  if (first && localeShaped.test(first) && !(routing.locales as readonly string[]).includes(first)) {
    return NextResponse.next();
  }

  const response = intl(request);

  if (pathname === '/' && response.status === 307) {
    const redirect = NextResponse.redirect(response.headers.get('location')!, 302);
    response.headers.forEach((value, key) => {
      if (key !== 'location') redirect.headers.append(key, value);
    });
    return redirect;
  }
  return response;
}

export const config = {
  // Everything but /v1, /api, artwork images (/images), the staff dashboard (/staff: its own locale
  // segment and cookie path, see src/app/staff), Next internals and paths with a dot (favicon.svg,
  // robots.txt, ...).
  matcher: ['/((?!v1|api|images/|staff/|staff$|_next|_vercel|.*\\..*).*)'],
};
