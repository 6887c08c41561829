/** Bytes as megabytes the way the shopper's language writes them ("20 MB", "20 Mo"); locale from the page. */
export function formatMegabytes(bytes: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(bytes / 1024 / 1024);
}
