import 'server-only';
/** Where a Commons file is served from; `?width=` (a standard width only, src/shared/images.ts) gives a thumbnail. */
export function commonsUrl(file: string | null): string | null {
  return file ? `https://commons.wikimedia.org/wiki/Special:FilePath/${encodeURIComponent(file)}` : null;
}

/** Our slugs are lower-case ASCII words joined by hyphens; anything else names nothing we have. */
export const isSlug = (value: string) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
