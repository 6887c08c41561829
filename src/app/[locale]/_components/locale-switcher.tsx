'use client';

import { useLocale, useTranslations } from 'next-intl';
import { Link, usePathname } from '@/i18n/navigation';
import { routing } from '@/i18n/routing';

/** Links to the same page in every language (the path is kept, the prefix changes). */
export function LocaleSwitcher() {
  const t = useTranslations('LocaleSwitcher');
  const current = useLocale();
  const pathname = usePathname();
  return (
    <nav className="locale-switcher" aria-label={t('label')}>
      <ul>
        {routing.locales.map((locale) => (
          <li key={locale}>
            <Link
              href={pathname}
              locale={locale}
              hrefLang={locale}
              lang={locale}
              title={t(`names.${locale}`)}
              aria-label={t(`names.${locale}`)}
              aria-current={locale === current ? 'page' : undefined}
              prefetch={false}
            >
              {locale.toUpperCase()}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
