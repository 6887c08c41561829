import { cookies } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { cache } from 'react';
import { secureCookies } from '@/server/accounts/session';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { locales, type Locale } from '@/shared/locales';
import type { Actor } from '@/server/api/actor';
import { dashboardActor, staffCookieName } from '@/server/staff/session';

/**
 * Who is asking, for a dashboard page (server components only): the staff with a live session
 * cookie, or anonymous. Found once per render (React `cache`), however many layouts and pages ask.
 */
export const staffPageActor = cache(async (): Promise<Actor> => {
  const e = env();
  const value = (await cookies()).get(staffCookieName(secureCookies(e)))?.value;
  return dashboardActor(db(), value, e.ADMIN_TOKEN);
});

/** Whether this request carries a live dashboard session (server components only). */
export async function hasStaffSession(): Promise<boolean> {
  return (await staffPageActor()).kind === 'staff';
}

/**
 * Every dashboard page calls this first: without a session it renders nothing of the shop's data
 * and sends the browser to the sign-in form, which returns to `path` afterwards. (A layout cannot
 * guard: it is not rendered again on every navigation, and pages render beside it, not after it.)
 */
export async function requireStaff(locale: string, path: string): Promise<Extract<Actor, { kind: 'staff' }>> {
  const actor = await staffPageActor();
  if (actor.kind !== 'staff') redirect(`/staff/${locale}/sign-in?next=${encodeURIComponent(path)}`);
  return actor;
}

/** The `[locale]` segment as one of the dashboard's languages; anything else is not a page. */
export function staffLocale(raw: string): Locale {
  if (!hasLocale(locales, raw)) notFound();
  return raw;
}
