'use client';

import type { CSSProperties, HTMLAttributes } from 'react';
import { placedAt } from '@/components/order/canvas-fit';
import { fitOf, type Fit, type Frame } from '@/shared/canvas';
import { depthCm, finishCm, outerCm, type Point } from './wall-scale';
import styles from './wall-preview.module.css';

interface Props extends HTMLAttributes<HTMLDivElement> {
  widthCm: number;
  heightCm: number;
  frame: Frame;
  imageSrc: string;
  alt: string;
  /** A reproduction's fit: `whole` shows the work inside the canvas with the extended background around it. */
  fit?: { ratio: number; fit: Fit };
  /** The middle of the painting on the picture, as fractions of its width and height. */
  centre: Point;
}

/**
 * The painting as it hangs: sized in centimetres through the scene's `--cm` (a centimetre of wall
 * as a length), with what its finish adds around the canvas (bare canvas, depth, moulding).
 */
export function HungPainting({ widthCm, heightCm, frame, imageSrc, alt, fit, centre, className, style, ...rest }: Props) {
  const outer = outerCm(widthCm, heightCm, frame);
  const box = {
    left: `${centre.x * 100}%`,
    top: `${centre.y * 100}%`,
    width: `calc(var(--cm) * ${outer.widthCm})`,
    height: `calc(var(--cm) * ${outer.heightCm})`,
    '--edge': String(finishCm[frame]),
    '--depth': String(depthCm[frame]),
    ...style,
  } as CSSProperties;
  return (
    <div className={[styles.painting, className].filter(Boolean).join(' ')} data-frame={frame} style={box} {...rest}>
      <div className={styles.canvas} data-testid="wall-canvas" style={{ width: `calc(var(--cm) * ${widthCm})`, height: `calc(var(--cm) * ${heightCm})` }}>
        {fit?.fit === 'whole' ? (
          <WholeOnCanvas {...fit} canvas={{ widthCm, heightCm }} imageSrc={imageSrc} alt={alt} />
        ) : (
          // Cropped (or a custom painting): the picture fills the canvas, centred, as the painter will.
          // eslint-disable-next-line @next/next/no-img-element -- our own /images route; a few hundred pixels are plenty here.
          <img src={imageSrc} alt={alt} draggable={false} loading="lazy" decoding="async" />
        )}
      </div>
    </div>
  );
}

/** The whole work in its place on the canvas, over its own colours blurred: the background the painter extends. */
function WholeOnCanvas({ ratio, canvas, imageSrc, alt }: { ratio: number; canvas: { widthCm: number; heightCm: number }; imageSrc: string; alt: string }) {
  const { picture } = fitOf(ratio, canvas, 'whole');
  return (
    <>
      {/* eslint-disable-next-line @next/next/no-img-element -- the same picture, as background */}
      <img className={styles.extended} src={imageSrc} alt="" draggable={false} loading="lazy" decoding="async" />
      {/* eslint-disable-next-line @next/next/no-img-element -- our own /images route */}
      <img className={styles.whole} src={imageSrc} alt={alt} draggable={false} loading="lazy" decoding="async" style={placedAt(picture)} />
    </>
  );
}
