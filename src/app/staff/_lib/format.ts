/**
 * The dashboard's formatting: integer cents, UTC timestamps and counts written the way the staff
 * member's language writes them. Times are shown in UTC (labelled), as the publish cap's day is.
 */

import { dateTimeFormat, numberFormat } from '@/lib/format';

export function money(cents: number, locale: string): string {
  return numberFormat(locale, { style: 'currency', currency: 'USD' }).format(cents / 100);
}

export function count(n: number, locale: string): string {
  return numberFormat(locale).format(n);
}

export function dateTime(value: string | Date, locale: string): string {
  // dateStyle cannot be combined with timeZoneName, so the fields are spelled out.
  return dateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(value));
}

export function shortDateTime(value: string | Date, locale: string): string {
  return dateTimeFormat(locale, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(new Date(value));
}

/** How long ago, in the largest unit that fits ("3 hours ago", "il y a 2 jours"). */
export function age(value: string | Date, locale: string, now = new Date()): string {
  const seconds = Math.round((new Date(value).getTime() - now.getTime()) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return format.format(0, 'minute');
}
