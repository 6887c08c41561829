import 'server-only';
/** Where a Commons file is served from; the website adds `?width=` for thumbnails. */
export function commonsUrl(file: string | null): string | null {
  return file ? `https://commons.wikimedia.org/wiki/Special:FilePath/${encodeURIComponent(file)}` : null;
}

/** Our slugs are lower-case ASCII words joined by hyphens; anything else names nothing we have. */
export const isSlug = (value: string) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
