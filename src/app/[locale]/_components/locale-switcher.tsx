'use client';

import { Suspense, useEffect, useRef } from 'react';
import { useSearchParams } from 'next/navigation';
import { useLocale, useTranslations } from 'next-intl';
import { Link, usePathname } from '@/i18n/navigation';
import { routing } from '@/i18n/routing';
import { languageNames, type Locale } from '@/shared/locales';
import styles from './locale-switcher.module.css';

/**
 * The same page in another language: the path and its query are kept (`/de/artworks?q=sternennacht`
 * → `/fr/artworks?q=sternennacht`). A native disclosure (`<details>`), so it opens with the keyboard
 * and without JavaScript, and takes one small button's room on a phone.
 */
export function LocaleSwitcher() {
  const t = useTranslations('LocaleSwitcher');
  const current = useLocale();
  const pathname = usePathname();
  const details = useRef<HTMLDetailsElement>(null);

  // The header stays mounted across client navigations: fold the list when the page changes.
  // Not on the first run: a list opened before the page finished hydrating stays open (seen in the
  // e2e run on a loaded machine, where the switch folded under the shopper's keyboard).
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (details.current) details.current.open = false;
  }, [pathname]);

  // Escape folds it and gives focus back to its button; a click elsewhere folds it too.
  useEffect(() => {
    const element = details.current;
    if (!element) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && element.open) {
        element.open = false;
        element.querySelector('summary')?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (element.open && !element.contains(event.target as Node)) element.open = false;
    };
    element.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      element.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, []);

  return (
    <nav className={styles.switcher} aria-label={t('label')}>
      <details ref={details} className={styles.details}>
        <summary className={styles.summary} aria-label={t('current', { code: current.toUpperCase(), name: languageNames[current] })}>
          <svg className={styles.globe} viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
            <circle cx="12" cy="12" r="9" />
            <path d="M3 12h18M12 3c2.6 2.6 3.9 5.6 3.9 9s-1.3 6.4-3.9 9M12 3C9.4 5.6 8.1 8.6 8.1 12s1.3 6.4 3.9 9" />
          </svg>
          <span className={styles.code}>{current.toUpperCase()}</span>
          <span className={styles.name}>{languageNames[current]}</span>
          <span className={styles.caret} aria-hidden="true" />
        </summary>
        {/* The links with the query come after the rest of the header: later in the same answer
            (streamed, and revealed by React after a throttle), or from the browser for a page
            served from cache. Until then they keep the path alone. Only the list waits for them:
            the disclosure around it stays the same element, so a list opened while the page was
            still loading stays open when its links are drawn again. */}
        <Suspense fallback={<LanguageLinks href={pathname} current={current} />}>
          <LanguageLinksWithQuery pathname={pathname} current={current} />
        </Suspense>
      </details>
    </nav>
  );
}

function LanguageLinksWithQuery({ pathname, current }: { pathname: string; current: Locale }) {
  const query = useSearchParams().toString();
  return <LanguageLinks href={query ? `${pathname}?${query}` : pathname} current={current} />;
}

function LanguageLinks({ href, current }: { href: string; current: Locale }) {
  return (
    <ul className={styles.list}>
      {routing.locales.map((locale) => (
        <li key={locale}>
          <Link className={styles.option} href={href} locale={locale} hrefLang={locale} lang={locale} aria-current={locale === current ? 'page' : undefined} prefetch={false}>
            <span>{languageNames[locale]}</span>
            <span className={styles.optionCode} aria-hidden="true">
              {locale.toUpperCase()}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
