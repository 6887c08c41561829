'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { ArtworkImage } from '@/components/artwork/artwork-image';
import { numberFormat } from '@/lib/format';
import { imageSrc } from '@/shared/images';
import { useTouchScreen } from '@/lib/use-touch-screen';
import styles from './artwork-page.module.css';

interface Props {
  file: string | null;
  title: string;
  alt: string;
  ratio: number | null;
}

interface View {
  scale: number;
  x: number;
  y: number;
}

const fit: View = { scale: 1, x: 0, y: 0 };
const MAX_SCALE = 6;

/**
 * Zooms about a point (relative to the stage's centre) so that point stays under the finger or
 * cursor; back at scale 1 the painting is simply fitted again.
 */
function zoomAt(view: View, nextScale: number, at: { x: number; y: number }): View {
  const scale = Math.min(MAX_SCALE, Math.max(1, nextScale));
  if (scale === 1) return fit;
  const k = scale / view.scale;
  return { scale, x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k };
}

/**
 * The painting, large, with a full-screen viewer of the 1920 px image: a native modal dialog
 * (the rest of the page is inert, Esc closes it, focus comes back to the opener), with wheel,
 * pinch, drag and keyboard zoom and pan.
 */
export function ZoomableImage({ file, title, alt, ratio }: Props) {
  const t = useTranslations('Artwork.zoom');
  const common = useTranslations('Common');
  // Named by the words it shows, then the work (WCAG 2.5.3): "Click to zoom: The Starry Night".
  const openerName = common('named', { label: t(useTouchScreen() ? 'hintTouch' : 'hint'), title });
  const locale = useLocale();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<{ distance: number; view: View } | null>(null);
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<View>(fit);

  const show = () => {
    setView(fit);
    setOpen(true);
    dialogRef.current?.showModal();
  };
  const hide = () => dialogRef.current?.close();
  const onClose = () => {
    setOpen(false);
    pointers.current.clear();
    openerRef.current?.focus();
  };

  /** A point of the page relative to the stage's centre, where the transform's origin is. */
  const fromCentre = useCallback((clientX: number, clientY: number) => {
    const rect = stageRef.current?.getBoundingClientRect();
    if (!rect) return { x: 0, y: 0 };
    return { x: clientX - rect.left - rect.width / 2, y: clientY - rect.top - rect.height / 2 };
  }, []);

  const onWheel = (event: WheelEvent) => {
    const at = fromCentre(event.clientX, event.clientY);
    setView((v) => zoomAt(v, v.scale * Math.exp(-event.deltaY * 0.0015), at));
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2) {
      const [p, q] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
      pinch.current = { distance: Math.hypot(q.x - p.x, q.y - p.y), view };
    }
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const last = pointers.current.get(event.pointerId);
    if (!last) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.current.set(event.pointerId, now);
    if (pointers.current.size === 2 && pinch.current) {
      const [p, q] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const start = pinch.current;
      const at = fromCentre((p.x + q.x) / 2, (p.y + q.y) / 2);
      setView(zoomAt(start.view, (start.view.scale * Math.hypot(q.x - p.x, q.y - p.y)) / start.distance, at));
    } else if (pointers.current.size === 1) {
      setView((v) => (v.scale === 1 ? v : { ...v, x: v.x + now.x - last.x, y: v.y + now.y - last.y }));
    }
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  };

  const zoomBy = (factor: number) => setView((v) => zoomAt(v, v.scale * factor, { x: 0, y: 0 }));

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const step = 60;
    const keys: Record<string, () => void> = {
      '+': () => zoomBy(1.4),
      '=': () => zoomBy(1.4),
      '-': () => zoomBy(1 / 1.4),
      '0': () => setView(fit),
      ArrowLeft: () => setView((v) => (v.scale === 1 ? v : { ...v, x: v.x + step })),
      ArrowRight: () => setView((v) => (v.scale === 1 ? v : { ...v, x: v.x - step })),
      ArrowUp: () => setView((v) => (v.scale === 1 ? v : { ...v, y: v.y + step })),
      ArrowDown: () => setView((v) => (v.scale === 1 ? v : { ...v, y: v.y - step })),
    };
    if (event.key === 'Tab') {
      // Keep Tab inside the viewer (a modal dialog would otherwise let it reach the browser's own UI).
      const focusable = [...(dialogRef.current?.querySelectorAll<HTMLElement>('button:not(:disabled)') ?? [])];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
      return;
    }
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  // Wheel zoom must be able to stop the page from scrolling, which React's passive wheel listener cannot.
  useEffect(() => {
    const stage = stageRef.current;
    if (!open || !stage) return;
    const stop = (e: globalThis.WheelEvent) => e.preventDefault();
    stage.addEventListener('wheel', stop, { passive: false });
    return () => stage.removeEventListener('wheel', stop);
  }, [open]);

  return (
    <>
      <div className={styles.zoomable}>
        <ArtworkImage
          file={file}
          alt={alt}
          ratio={ratio}
          priority
          maxWidth={1280}
          sizes="(min-width: 64rem) 36rem, (min-width: 40rem) 80vw, 92vw"
          className={styles.heroPicture}
        />
        {file ? (
          <button ref={openerRef} type="button" className={styles.zoomOpener} onClick={show} aria-haspopup="dialog" aria-label={openerName}>
            <span className={styles.zoomBadge} aria-hidden="true">
              <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                <circle cx="10.5" cy="10.5" r="6.5" />
                <path d="M15.5 15.5 21 21M10.5 7.5v6M7.5 10.5h6" />
              </svg>
              <span className={styles.hintPointer}>{t('hint')}</span>
              <span className={styles.hintTouch}>{t('hintTouch')}</span>
            </span>
          </button>
        ) : null}
      </div>
      {file ? (
        <dialog
          ref={dialogRef}
          className={styles.viewer}
          aria-label={t('dialogLabel', { title })}
          aria-describedby="zoom-help"
          onClose={onClose}
          onKeyDown={onKeyDown}
          data-testid="zoom-viewer"
        >
          <p id="zoom-help" className={styles.zoomHelp}>
            {t('help')}
          </p>
          <div
            ref={stageRef}
            className={styles.stage}
            onWheel={onWheel}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onDoubleClick={(e) => setView((v) => (v.scale > 1 ? fit : zoomAt(v, 2.5, fromCentre(e.clientX, e.clientY))))}
            data-zoomed={view.scale > 1 ? 'true' : 'false'}
          >
            {open ? (
              // eslint-disable-next-line @next/next/no-img-element -- the 1920 px image from our /images route, only once the viewer opens.
              <img src={imageSrc(file, 1920)} alt={alt} draggable={false} style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }} />
            ) : null}
          </div>
          <div className={styles.toolbar}>
            <button type="button" className={styles.tool} onClick={() => zoomBy(1 / 1.4)} aria-label={t('zoomOut')} disabled={view.scale <= 1}>
              −
            </button>
            <output className={styles.zoomLevel} aria-live="polite">
              {numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(view.scale)}
            </output>
            <button type="button" className={styles.tool} onClick={() => zoomBy(1.4)} aria-label={t('zoomIn')} disabled={view.scale >= MAX_SCALE}>
              +
            </button>
            <button type="button" className={styles.toolText} onClick={() => setView(fit)}>
              {t('reset')}
            </button>
            <button type="button" className={styles.toolText} onClick={hide} autoFocus>
              {t('close')}
            </button>
          </div>
        </dialog>
      ) : null}
    </>
  );
}
