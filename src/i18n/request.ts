import { hasLocale } from 'next-intl';
import { getRequestConfig } from 'next-intl/server';
import { routing } from './routing';

export default getRequestConfig(async ({ locale: explicit, requestLocale }) => {
  // An explicit `getTranslations({ locale })` wins; otherwise the `[locale]` segment, which can be
  // any string (it also catches unknown paths), so anything unknown falls back to the default.
  const requested = explicit ?? (await requestLocale);
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  return {
    locale,
    messages: (await import(`../../messages/${locale}.json`)).default,
  };
});
