// Which answers the front compresses on the way out, and the Vary header that says so; the
// encodings and the compressors themselves are the app's too (src/server/http/compress.ts).

/** Text, scripts, styles, JSON and SVG shrink; images, fonts in woff2 and archives do not. */
export function isCompressible(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/javascript' ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/manifest+json' ||
    type === 'image/svg+xml'
  );
}

/** Adds `Accept-Encoding` to a Vary header value without repeating it. */
export function varyWithEncoding(vary: string | number | string[] | undefined): string {
  const values = (Array.isArray(vary) ? vary.join(',') : vary === undefined ? '' : String(vary))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.includes('*') || values.some((v) => v.toLowerCase() === 'accept-encoding')) return values.join(', ');
  return [...values, 'Accept-Encoding'].join(', ');
}
