import 'server-only';
import { PrismaAdapter } from '@auth/prisma-adapter';
import type { AuthOptions } from 'next-auth';
import type { Adapter } from 'next-auth/adapters';
import GoogleProvider from 'next-auth/providers/google';
import { db } from '@/server/db/client';
import { env, publicBaseUrl } from '@/server/env';
import { GOOGLE_ISSUER } from '@/server/integrations/google';
import { pagePath } from '@/shared/paths';
import { secureCookies, SESSION_MAX_AGE_SECONDS, sessionCookieName, sessionCookieOptions } from './session';

/**
 * NextAuth for the website's redirect sign-in (/api/auth/...): Google, the Prisma adapter and
 * database sessions in the same `sessions` table and under the same cookie as
 * POST /v1/account/auth/google, so a session made by either flow is good in both.
 */
export function authOptions(): AuthOptions {
  const e = env();
  const secure = secureCookies(e);
  const providers = e.GOOGLE_CLIENT_ID
    ? [
        GoogleProvider({
          clientId: e.GOOGLE_CLIENT_ID,
          clientSecret: e.GOOGLE_CLIENT_SECRET ?? '',
          // The same issuer as ID-token sign-in; Google's own unless configured otherwise.
          ...(e.GOOGLE_ISSUER !== GOOGLE_ISSUER ? { issuer: e.GOOGLE_ISSUER, wellKnown: `${e.GOOGLE_ISSUER.replace(/\/+$/, '')}/.well-known/openid-configuration` } : {}),
          // ID-token sign-in links a Google account to the user with the same verified e-mail; so does this flow.
          allowDangerousEmailAccountLinking: true,
        }),
      ]
    : [];
  return {
    adapter: PrismaAdapter(db() as never) as Adapter,
    providers,
    secret: e.NEXTAUTH_SECRET,
    session: { strategy: 'database', maxAge: SESSION_MAX_AGE_SECONDS },
    useSecureCookies: secure,
    cookies: { sessionToken: { name: sessionCookieName(secure), options: sessionCookieOptions(secure) } },
    // The shop's own page explains a sign-in that did not complete, instead of NextAuth's bare
    // English one; NextAuth cannot know the visitor's language here, so it is the English page.
    pages: { signIn: `/en${pagePath.signIn()}`, error: `/en${pagePath.signIn()}` },
    callbacks: {
      // Google vouches for an address only when it says it verified it: an unverified one could be
      // anybody's, and signing it in (or linking it to the user of that address, as above) would hand
      // that user's account over. ID-token sign-in refuses the same (verifyGoogleIdToken). Runs before
      // NextAuth creates or links anything; refused, the browser lands on the sign-in page's error.
      signIn: ({ account, profile }) => account?.provider !== 'google' || emailVerified(profile),
    },
  };
}

/** Whether Google's profile (the ID token's claims) says its e-mail address is verified. */
function emailVerified(profile: unknown): boolean {
  const verified = (profile as { email_verified?: unknown } | undefined)?.email_verified;
  return verified === true || verified === 'true';
}

/**
 * NextAuth 4 builds its callback address from NEXTAUTH_URL and otherwise assumes
 * http://localhost:3000; the shop's public address is the right one.
 */
export function defaultNextAuthUrl(): void {
  process.env.NEXTAUTH_URL ??= publicBaseUrl(env());
}
