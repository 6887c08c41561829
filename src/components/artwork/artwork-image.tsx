import { imageSrc, imageSrcSet, type ImageWidth } from '@/shared/images';
import styles from './artwork.module.css';

interface Props {
  file: string | null;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn, so the browser picks a fitting width. */
  sizes: string;
  /** The largest width worth sending for this place on the page. */
  maxWidth?: ImageWidth;
  /** Images above the fold load at once; the rest when scrolled near. */
  priority?: boolean;
  /** Width / height of the painting when known, so the box keeps its shape before the image arrives. */
  ratio?: number | null;
  className?: string;
}

/**
 * A painting's picture on the mat colour. Our `/images` route always answers with a picture (the
 * Commons thumbnail or a drawn placeholder), so there is no broken-image state to handle here.
 */
export function ArtworkImage({ file, alt, sizes, maxWidth = 960, priority = false, ratio, className }: Props) {
  const aspect = ratio && Number.isFinite(ratio) && ratio > 0 ? ratio : 4 / 5;
  // `src` for browsers without srcset: a card's width, or less when this place wants less.
  const fallback = Math.min(500, maxWidth) as ImageWidth;
  return (
    <div className={[styles.picture, className].filter(Boolean).join(' ')} style={{ aspectRatio: String(aspect) }}>
      {file ? (
        // eslint-disable-next-line @next/next/no-img-element -- our own /images route sizes and caches; next/image would add a second cache.
        <img
          src={imageSrc(file, fallback)}
          srcSet={imageSrcSet(file, maxWidth)}
          sizes={sizes}
          alt={alt}
          width={fallback}
          height={Math.round(fallback / aspect)}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding="async"
        />
      ) : (
        <span className={styles.noImage} role="img" aria-label={alt} />
      )}
    </div>
  );
}
