import type { CSSProperties } from 'react';
import { fitOf, type Fit, type FitRect } from '@/shared/canvas';
import styles from './order.module.css';

interface Props {
  imageSrc: string;
  /** The work's width / height. */
  ratio: number;
  canvas: { widthCm: number; heightCm: number };
  fit: Fit;
  className?: string;
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

/** A `fitOf` rectangle as the absolute position and size of what is drawn in it. */
export const placedAt = (rect: FitRect): CSSProperties => ({ left: percent(rect.left), top: percent(rect.top), width: percent(rect.width), height: percent(rect.height) });

/**
 * A small drawing of how the work meets a canvas: `whole` shows the canvas with the whole work in
 * it and the background the painter adds around it (the picture's own colours, blurred, outside a
 * dashed line); `crop` shows the whole work with the canvas's edges as crop lines and what falls
 * outside them dimmed. Decorative: the words beside it say the same.
 */
export function CanvasFit({ imageSrc, ratio, canvas, fit, className }: Props) {
  const { boxRatio, picture } = fitOf(ratio, canvas, fit);
  const place = placedAt(picture);
  return (
    <span className={[styles.fitBox, className].filter(Boolean).join(' ')} data-fit={fit} style={{ '--ratio': boxRatio } as CSSProperties} aria-hidden="true">
      {/* eslint-disable-next-line @next/next/no-img-element -- a small copy of the picture already on the page */}
      <img className={styles.fitWork} src={imageSrc} alt="" />
      {fit === 'whole' ? (
        // eslint-disable-next-line @next/next/no-img-element -- the same picture, in its place on the canvas
        <img className={styles.fitPicture} src={imageSrc} alt="" style={place} />
      ) : (
        <span className={styles.fitKept} style={place} />
      )}
    </span>
  );
}
