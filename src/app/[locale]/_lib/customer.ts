import { cookies } from 'next/headers';
import { cache } from 'react';
import { sessionUser, type AccountUser } from '@/server/accounts/service';
import { secureCookies, sessionCookieName } from '@/server/accounts/session';
import { db } from '@/server/db/client';
import { env } from '@/server/env';

/**
 * The signed-in customer of the session cookie, for the storefront's personal pages (server
 * components, never cached: reading the cookie makes the page dynamic), or null. Found once per
 * render (React `cache`), as the dashboard's `staffPageActor` is.
 */
export const pageCustomer = cache(async (): Promise<AccountUser | null> => {
  const token = (await cookies()).get(sessionCookieName(secureCookies(env())))?.value ?? null;
  return sessionUser(db(), token);
});
