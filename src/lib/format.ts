/**
 * Formatting at the edge: the database keeps integer cents, centimetres and UTC; pages show them the
 * way the visitor's language writes them.
 */

/** Integer cents → the locale's way of writing US dollars (`$129`, `129 $`, `129 $US`); cents only when there are some. */
export function formatUsd(cents: number, locale: string): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}

/** A whole number with the locale's grouping (`12,480`, `12.480`, `12 480`). */
export function formatCount(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** Centimetres with one decimal at most, in the locale's notation. */
export function formatCm(cm: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'centimeter', maximumFractionDigits: 1 }).format(cm);
}

/** `61 × 76 cm` (width × height), kept on one line (no-break spaces): a size never wraps before its unit. */
export function formatSize(widthCm: number, heightCm: number, locale: string): string {
  const n = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return `${n.format(widthCm)}\u00a0×\u00a0${formatCm(heightCm, locale).replace(/ /g, '\u00a0')}`;
}

/** A date (ISO string or Date) as the locale writes it, in UTC so server and browser agree. */
export function formatDate(value: string | Date, locale: string, style: 'medium' | 'long' = 'medium'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' }).format(new Date(value));
}

/** Date and time, for order timelines. */
export function formatDateTime(value: string | Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(value));
}
