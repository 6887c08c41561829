import { cookies } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { hasLocale } from 'next-intl';
import { secureCookies } from '@/server/accounts/session';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { isStaffSession, staffCookieName } from '@/server/staff/session';
import { locales, type Locale } from '@/shared/locales';

/** Whether this request carries a live dashboard session (server components only). */
export async function hasStaffSession(): Promise<boolean> {
  const e = env();
  const value = (await cookies()).get(staffCookieName(secureCookies(e)))?.value;
  return isStaffSession(db(), value, e.ADMIN_TOKEN);
}

/**
 * Every dashboard page calls this first: without a session it renders nothing of the shop's data
 * and sends the browser to the sign-in form, which returns to `path` afterwards. (A layout cannot
 * guard: it is not rendered again on every navigation, and pages render beside it, not after it.)
 */
export async function requireStaff(locale: string, path: string): Promise<void> {
  if (!(await hasStaffSession())) redirect(`/staff/${locale}/sign-in?next=${encodeURIComponent(path)}`);
}

/** The `[locale]` segment as one of the dashboard's languages; anything else is not a page. */
export function staffLocale(raw: string): Locale {
  if (!hasLocale(locales, raw)) notFound();
  return raw;
}
