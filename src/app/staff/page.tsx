import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { defaultLocale, isLocale } from '@/shared/locales';

export const dynamic = 'force-dynamic';

/** Bare /staff: on to the dashboard in the staff member's best language (Accept-Language), else English. */
export default async function StaffRoot() {
  const accepted = (await headers()).get('accept-language') ?? '';
  const ranked = accepted
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { language: tag.toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  const best = ranked.find((entry) => isLocale(entry.language))?.language ?? defaultLocale;
  redirect(`/staff/${best}`);
}
