/** Every locale the website and the order form speak. */
export const locales = ['en', 'es', 'fr', 'de', 'it', 'ja', 'vi'] as const;
export type Locale = (typeof locales)[number];

/** The languages catalog text, stories and page notifications are written in; `vi` falls back to English. */
export const catalogLocales = ['en', 'es', 'fr', 'de', 'it', 'ja'] as const;
export type CatalogLocale = (typeof catalogLocales)[number];

export const defaultLocale: Locale = 'en';
