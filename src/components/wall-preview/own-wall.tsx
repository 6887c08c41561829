'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { TextField } from '@/components/ui/field';
import { formatCm } from '@/lib/format';
import { HungPainting } from './hung-painting';
import { cmAsPercentOfWidth, clampPoint, pxPerCm, type PictureSize, type Point } from './wall-scale';
import { ScaleBar } from './scale-bar';
import type { WallPreviewProps } from './wall-preview';
import styles from './wall-preview.module.css';

interface Photo extends PictureSize {
  url: string;
}

/** Arrow keys nudge a handle or the painting by 1 % of the photo (10 % with Shift). */
function nudged(point: Point, event: KeyboardEvent): Point | null {
  const step = event.shiftKey ? 0.1 : 0.01;
  const moves: Record<string, Point> = {
    ArrowLeft: { x: -step, y: 0 },
    ArrowRight: { x: step, y: 0 },
    ArrowUp: { x: 0, y: -step },
    ArrowDown: { x: 0, y: step },
  };
  const move = moves[event.key];
  return move ? clampPoint({ x: point.x + move.x, y: point.y + move.y }) : null;
}

/**
 * The shopper's own wall: a photo that never leaves the browser (an object URL), a line they drag
 * onto something they can measure, its length in cm, and the painting drawn at that scale where
 * they drag it.
 */
export function OwnWall(painting: WallPreviewProps) {
  const t = useTranslations('WallPreview');
  const locale = useLocale();
  const id = useId();
  const [photo, setPhoto] = useState<Photo | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [a, setA] = useState<Point>({ x: 0.3, y: 0.8 });
  const [b, setB] = useState<Point>({ x: 0.6, y: 0.8 });
  const [lengthText, setLengthText] = useState('');
  const [centre, setCentre] = useState<Point>({ x: 0.5, y: 0.4 });
  const sceneRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ target: 'a' | 'b' | 'painting'; offset: Point } | null>(null);

  // The photo's object URL lives as long as it is shown.
  useEffect(() => () => void (photo && URL.revokeObjectURL(photo.url)), [photo]);

  const choose = (file: File | undefined) => {
    if (!file || !file.type.startsWith('image/')) return;
    if (pending) URL.revokeObjectURL(pending);
    setPending(URL.createObjectURL(file));
  };

  const lengthCm = Number(lengthText.replace(',', '.'));
  const scale = photo ? pxPerCm(a, b, photo, lengthCm) : null;

  const pointAt = (event: PointerEvent): Point | null => {
    const rect = sceneRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return null;
    return clampPoint({ x: (event.clientX - rect.left) / rect.width, y: (event.clientY - rect.top) / rect.height });
  };

  const startDrag = (target: 'a' | 'b' | 'painting') => (event: PointerEvent<HTMLElement>) => {
    const at = pointAt(event);
    if (!at) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const origin = target === 'a' ? a : target === 'b' ? b : centre;
    drag.current = { target, offset: { x: origin.x - at.x, y: origin.y - at.y } };
  };
  const moveDrag = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    const at = current && pointAt(event);
    if (!current || !at) return;
    const next = clampPoint({ x: at.x + current.offset.x, y: at.y + current.offset.y });
    if (current.target === 'a') setA(next);
    else if (current.target === 'b') setB(next);
    else setCentre(next);
  };
  const endDrag = () => {
    drag.current = null;
  };
  /* eslint-disable react-hooks/refs -- a false alarm: these handlers read the ref when the pointer moves, never while rendering */
  const dragProps = (target: 'a' | 'b' | 'painting') => ({
    onPointerDown: startDrag(target),
    onPointerMove: moveDrag,
    onPointerUp: endDrag,
    onPointerCancel: endDrag,
  });
  /* eslint-enable react-hooks/refs */
  const keyProps = (point: Point, set: (p: Point) => void) => ({
    onKeyDown: (event: KeyboardEvent) => {
      const next = nudged(point, event);
      if (!next) return;
      event.preventDefault();
      set(next);
    },
  });

  const picker = (
    <label className={styles.pick}>
      <input
        type="file"
        accept="image/*"
        className={styles.pickInput}
        aria-describedby={`${id}-private`}
        onChange={(e) => {
          choose(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <span className={styles.pickLabel}>{photo ? t('own.change') : t('own.pick')}</span>
    </label>
  );

  // The chosen photo is measured off-screen first: the scale is worked out in its own pixels.
  const measure = pending ? (
    // eslint-disable-next-line @next/next/no-img-element -- an object URL from the shopper's device.
    <img
      src={pending}
      alt=""
      className={styles.measure}
      onLoad={(e) => {
        const img = e.currentTarget;
        setPhoto({ url: pending, width: img.naturalWidth, height: img.naturalHeight });
        setPending(null);
      }}
    />
  ) : null;

  if (!photo) {
    return (
      <div className={styles.ownEmpty}>
        <p className={styles.ownIntro}>{t('own.intro')}</p>
        {picker}
        <p id={`${id}-private`} className={styles.private}>
          {t('own.private')}
        </p>
        {measure}
      </div>
    );
  }

  const aspect = photo.width / photo.height;
  const scene = {
    aspectRatio: `${photo.width} / ${photo.height}`,
    width: `min(100%, calc(68vh * ${aspect}))`,
    ...(scale ? { '--cm': `${cmAsPercentOfWidth(scale, photo.width)}cqw` } : {}),
  } as CSSProperties;
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };

  return (
    <div className={styles.own}>
      <ol className={styles.steps}>
        <li>{t('own.stepMark')}</li>
        <li>{t('own.stepLength')}</li>
        <li>{t('own.stepMove')}</li>
      </ol>
      <div ref={sceneRef} className={`${styles.scene} ${styles.ownScene}`} style={scene} data-testid="wall-scene" data-room="own">
        {/* eslint-disable-next-line @next/next/no-img-element -- the shopper's own photo, shown from their device. */}
        <img className={styles.room} src={photo.url} alt={t('own.photoAlt')} draggable={false} />
        {scale ? (
          <HungPainting
            {...painting}
            centre={centre}
            className={styles.movable}
            role="button"
            tabIndex={0}
            aria-label={t('own.movePainting')}
            {...dragProps('painting')}
            {...keyProps(centre, setCentre)}
          />
        ) : null}
        <svg className={styles.line} viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
          <line x1={a.x * 100} y1={a.y * 100} x2={b.x * 100} y2={b.y * 100} vectorEffect="non-scaling-stroke" />
        </svg>
        {lengthCm > 0 ? (
          <span className={styles.lineLabel} style={{ left: `${mid.x * 100}%`, top: `${mid.y * 100}%` }} aria-hidden="true">
            {formatCm(lengthCm, locale)}
          </span>
        ) : null}
        {(['a', 'b'] as const).map((end) => {
          const point = end === 'a' ? a : b;
          return (
            <button
              key={end}
              type="button"
              className={styles.handle}
              style={{ left: `${point.x * 100}%`, top: `${point.y * 100}%` }}
              aria-label={t(end === 'a' ? 'own.handleStart' : 'own.handleEnd')}
              data-testid={`wall-handle-${end}`}
              {...dragProps(end)}
              {...keyProps(point, end === 'a' ? setA : setB)}
            />
          );
        })}
        {scale ? <ScaleBar /> : null}
      </div>
      {measure}
      <div className={styles.ownControls}>
        <div className={styles.length}>
          <TextField
            id={`${id}-length`}
            label={t('own.lengthLabel')}
            hint={t('own.lengthHint')}
            type="number"
            inputMode="decimal"
            min={1}
            max={5000}
            step="any"
            value={lengthText}
            onChange={(e) => setLengthText(e.target.value)}
          />
        </div>
        {picker}
      </div>
      <p id={`${id}-private`} className={styles.private}>
        {scale ? t('own.private') : t('own.needLength')}
      </p>
    </div>
  );
}
