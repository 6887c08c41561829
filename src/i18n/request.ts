import { hasLocale, IntlErrorCode } from 'next-intl';
import { getRequestConfig } from 'next-intl/server';
import { logger } from '@/server/logger';
import { routing } from './routing';

/**
 * What a page shows in place of a string missing from messages/<locale>.json: a marker the
 * end-to-end tests look for on every page of every locale (tests/unit/messages.test.ts catches
 * missing keys earlier, this catches keys used but never written).
 */
export const missingMessageMarker = (path: string) => `⟦${path}⟧`;

export default getRequestConfig(async ({ locale: explicit, requestLocale }) => {
  // An explicit `getTranslations({ locale })` wins; otherwise the `[locale]` segment, which can be
  // any string (it also catches unknown paths), so anything unknown falls back to the default.
  const requested = explicit ?? (await requestLocale);
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  return {
    locale,
    // Every locale's file has the English file's keys (tests/unit/messages.test.ts).
    messages: ((await import(`../../messages/${locale}.json`)) as { default: typeof import('../../messages/en.json') }).default,
    getMessageFallback: ({ namespace, key }) => missingMessageMarker([namespace, key].filter(Boolean).join('.')),
    onError: (error) => {
      if (error.code === IntlErrorCode.MISSING_MESSAGE) logger.error('Missing website string (%s): %s', locale, error.message);
      else logger.error('Website string error (%s): %s', locale, error.message);
    },
  };
});
