/**
 * Formatting at the edge: the database keeps integer cents, centimetres and UTC; pages show them the
 * way the visitor's language writes them.
 */

/**
 * Intl's formatters, made once per language and options. Making one costs tens of microseconds and
 * a page makes many (each of a grid's 48 cards writes its size and price): made on every call, they
 * were about 1 ms of an artwork page's 30 ms render. A formatter never changes, so one is shared;
 * the map is bounded because a language may come from a request.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
const MAX_FORMATTERS = 256;

function shared<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** `new Intl.NumberFormat(locale, options)`, made once. */
export const numberFormat = (locale: string | undefined, options: Intl.NumberFormatOptions = {}) =>
  shared(`n ${locale} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

/** `new Intl.DateTimeFormat(locale, options)`, made once. */
export const dateTimeFormat = (locale: string | undefined, options: Intl.DateTimeFormatOptions = {}) =>
  shared(`d ${locale} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

/** Integer cents → the locale's way of writing US dollars (`$129`, `129 $`, `129 $US`); cents only when there are some. */
export function formatUsd(cents: number, locale: string): string {
  const whole = cents % 100 === 0;
  return numberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}

/** A whole number with the locale's grouping (`12,480`, `12.480`, `12 480`). */
export function formatCount(n: number, locale: string): string {
  return numberFormat(locale).format(n);
}

/** Centimetres with one decimal at most, in the locale's notation. */
export function formatCm(cm: number, locale: string): string {
  return numberFormat(locale, { style: 'unit', unit: 'centimeter', maximumFractionDigits: 1 }).format(cm);
}

/** `61 × 76 cm` (width × height), kept on one line (no-break spaces): a size never wraps before its unit. */
export function formatSize(widthCm: number, heightCm: number, locale: string): string {
  const n = numberFormat(locale, { maximumFractionDigits: 1 });
  return `${n.format(widthCm)}\u00a0×\u00a0${formatCm(heightCm, locale).replace(/ /g, '\u00a0')}`;
}

/** The pages whose shoppers measure walls in inches (the US, in a shop that prices in dollars). */
const inchLocales: ReadonlySet<string> = new Set(['en']);

/**
 * `12 × 16 in`, to the nearest inch, beside a size in centimetres on English pages; null where
 * shoppers think in centimetres.
 */
export function formatSizeInches(widthCm: number, heightCm: number, locale: string): string | null {
  if (!inchLocales.has(locale)) return null;
  const inches = (cm: number) => Math.round(cm / 2.54);
  return `${inches(widthCm)}\u00a0×\u00a0${numberFormat(locale, { style: 'unit', unit: 'inch', maximumFractionDigits: 0 }).format(inches(heightCm)).replace(/ /g, '\u00a0')}`;
}

/** A date (ISO string or Date) as the locale writes it, in UTC so server and browser agree. */
export function formatDate(value: string | Date, locale: string, style: 'medium' | 'long' = 'medium'): string {
  return dateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' }).format(new Date(value));
}

/** Date and time, for order timelines. */
export function formatDateTime(value: string | Date, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(value));
}
