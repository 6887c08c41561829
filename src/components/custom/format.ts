import { numberFormat } from '@/lib/format';

/**
 * Bytes as megabytes the way the shopper's language writes them ("20 MB", "20 Mo"), with a
 * no-break space so the number and its unit never part at a line end.
 */
export function formatMegabytes(bytes: number, locale?: string): string {
  return numberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 })
    .format(bytes / 1024 / 1024)
    .replace(/ /g, '\u00a0');
}
