/**
 * Artwork images are Wikimedia Commons files. Pages never point at Commons directly: they ask our
 * own `/images/<file>?w=<width>` (src/app/images/[file]/route.ts), which fetches the thumbnail once,
 * keeps it, and answers a drawn placeholder when Commons cannot be reached. Same origin, long cache
 * lifetimes, and no broken images when the outside world is away.
 */

/** The widths we ask Commons for: few, so thumbnails are shared between pages and cached well. */
export const imageWidths = [320, 640, 960, 1600, 2400] as const;
export type ImageWidth = (typeof imageWidths)[number];

export function imageSrc(file: string, width: ImageWidth): string {
  return `/images/${encodeURIComponent(file)}?w=${width}`;
}

/** `srcset` over the widths up to `max`, for `<img sizes>` to choose from. */
export function imageSrcSet(file: string, max: ImageWidth = 1600): string {
  return imageWidths
    .filter((w) => w <= max)
    .map((w) => `${imageSrc(file, w)} ${w}w`)
    .join(', ');
}
