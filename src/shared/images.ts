/**
 * Artwork images are Wikimedia Commons files. Pages never point at Commons directly: they ask our
 * own `/images/<file>?w=<width>` (src/app/images/[file]/route.ts), which fetches the thumbnail once,
 * keeps it, and answers a drawn placeholder when Commons cannot be reached. Same origin, long cache
 * lifetimes, and no broken images when the outside world is away.
 */

/**
 * The thumbnail widths Commons serves (Wikimedia's `$wgThumbnailSteps`, T414805). Since 2026 other
 * widths are refused or rate limited, so the shop never asks for one.
 */
export const commonsWidths = [20, 40, 60, 120, 250, 330, 500, 960, 1280, 1920, 3840] as const;
export type CommonsWidth = (typeof commonsWidths)[number];

/**
 * The widths the shop serves (pages' `srcset` and the `/images` route alike), ascending, each a
 * Commons step (tsc checks it): few, so thumbnails are shared between pages and cached well.
 * 330 small thumbnails, 500 cards, 960 and 1280 the large picture, 1920 the zoom viewer.
 */
export const imageWidths = [330, 500, 960, 1280, 1920] as const satisfies readonly CommonsWidth[];
export type ImageWidth = (typeof imageWidths)[number];
export const largestImageWidth: ImageWidth = imageWidths[imageWidths.length - 1]!;

/**
 * The served width for a requested one: the next step up, or the largest (a wider request gets the
 * largest we have). Addresses of older pages (`?w=320`, `640`, `1600`, `2400`) keep working.
 */
export function servedWidth(requested: number): ImageWidth {
  return imageWidths.find((w) => w >= requested) ?? largestImageWidth;
}

export function imageSrc(file: string, width: ImageWidth): string {
  return `/images/${encodeURIComponent(file)}?w=${width}`;
}

/** `srcset` over the widths up to `max`, for `<img sizes>` to choose from. */
export function imageSrcSet(file: string, max: ImageWidth = 1280): string {
  return imageWidths
    .filter((w) => w <= max)
    .map((w) => `${imageSrc(file, w)} ${w}w`)
    .join(', ');
}

/** The file's page on Commons (author, licence, history): where the image comes from. */
export function commonsFilePage(file: string): string {
  return `https://commons.wikimedia.org/wiki/File:${encodeURIComponent(file.replace(/ /g, '_'))}`;
}
