import 'server-only';
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { MAX_FORM_BODY_BYTES, withBodyAtMost } from '@/server/api/body';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { RateLimited } from '@/server/errors';
import { clientOf } from '@/server/http/client';
import { withRequestLog } from '@/server/http/request-log';
import { enforceLimit, type LimitSettings } from '@/server/limits/service';
import { authOptions, defaultNextAuthUrl } from './nextauth';

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/** The steps of a Google sign-in (starting it, Google's callback), counted against the signIn limit. */
const signInStep = (request: Request) => /^\/api\/auth\/(signin|callback)\//.test(new URL(request.url).pathname);

/**
 * The website's redirect sign-in with Google (NextAuth), sharing sessions with /v1/account: the
 * handler of src/app/api/auth/[...nextauth]/route.ts. `limits` answers the rate-limit settings of
 * a request, the process's configuration unless a test hands in others (a clock of its own).
 */
export function nextAuthRoute(limits: () => LimitSettings = () => ({ multiplier: env().RATE_LIMIT_MULTIPLIER })) {
  return withRequestLog(async (request: Request, context: RouteContext) => {
    defaultNextAuthUrl();
    // NextAuth's posts are small forms (a CSRF token, a callback address); NextAuth reads nextUrl, so the copy is a NextRequest.
    const req = await withBodyAtMost(request as NextRequest, MAX_FORM_BODY_BYTES, (init) => new NextRequest(request.url, init as ConstructorParameters<typeof NextRequest>[1]));
    if (req instanceof Response) return req;
    if (signInStep(req)) {
      try {
        await enforceLimit(db(), 'signIn', clientOf(req.headers), limits());
      } catch (error) {
        if (!(error instanceof RateLimited)) throw error;
        return Response.json(
          { error: { code: error.code, message: error.message } },
          { status: 429, headers: { 'retry-after': String(error.retryAfterSeconds), 'cache-control': 'private, no-store' } },
        );
      }
    }
    // next-auth 4 types its App Router handler loosely (`any`); it answers a Response.
    return NextAuth(req as never, context as never, authOptions()) as Promise<Response>;
  });
}
