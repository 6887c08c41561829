import { MAX_THUMBNAIL_CHARS } from '@/shared/basket-schema';

/** The longest side of a basket's picture of a photo, in pixels (shown at 96 CSS px at most). */
const SIDE = 120;

/**
 * A small JPEG of the shopper's photo, drawn in this browser from its preview, for the basket to
 * show: the upload itself is never read back from the shop. Null when the browser cannot draw the
 * photo (HEIC) or the picture will not fit the basket's limit even at low quality.
 */
export async function thumbnailOf(previewUrl: string | null): Promise<string | null> {
  if (!previewUrl) return null;
  try {
    const image = new Image();
    image.src = previewUrl;
    await image.decode();
    const scale = Math.min(1, SIDE / Math.max(image.naturalWidth, image.naturalHeight));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
    for (const quality of [0.75, 0.55, 0.35]) {
      const url = canvas.toDataURL('image/jpeg', quality);
      if (url.length <= MAX_THUMBNAIL_CHARS) return url;
    }
    return null;
  } catch {
    return null;
  }
}
