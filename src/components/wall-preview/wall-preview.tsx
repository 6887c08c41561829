'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { formatCm, formatSize } from '@/lib/format';
import type { Fit, Frame } from '@/shared/canvas';
import { HungPainting } from './hung-painting';
import { OwnWall } from './own-wall';
import { ScaleBar } from './scale-bar';
import { roomIds, rooms, unitsPerCm, type RoomId } from './rooms';
import { hangCentreCm, outerCm } from './wall-scale';
import styles from './wall-preview.module.css';

export interface WallPreviewProps {
  /** The canvas as it will be painted, in cm (turned the way the painting is). */
  widthCm: number;
  heightCm: number;
  frame: Frame;
  /** A picture of the painting (our /images route, or a photo's object URL on the custom page). */
  imageSrc: string;
  alt: string;
  /** A reproduction: how the work (width / height) meets the canvas, drawn as the order form draws it. */
  fit?: { ratio: number; fit: Fit };
  /** The heading's level where the preview sits (3 inside an order section that has its own h2). */
  headingLevel?: 2 | 3;
}

type Tab = RoomId | 'own';
const tabs: Tab[] = [...roomIds, 'own'];

/**
 * "See it on your wall": the chosen size and frame hung at true scale in a room drawn to a known
 * scale (public/rooms, `rooms.ts`), or on the shopper's own wall photo once they mark a length on
 * it. Everything updates as size and frame change.
 */
export function WallPreview({ headingLevel = 2, ...painting }: WallPreviewProps) {
  const { widthCm, heightCm, frame } = painting;
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  const t = useTranslations('WallPreview');
  const order = useTranslations('OrderForm');
  const locale = useLocale();
  const [tab, setTab] = useState<Tab>('living');
  const id = useId();
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  // Arrow keys move between tabs (the WAI-ARIA tabs pattern, selection follows focus).
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const i = tabs.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? tabs[(i + 1) % tabs.length]
        : event.key === 'ArrowLeft'
          ? tabs[(i - 1 + tabs.length) % tabs.length]
          : event.key === 'Home'
            ? tabs[0]
            : event.key === 'End'
              ? tabs[tabs.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  const caption = t('caption', { size: formatSize(widthCm, heightCm, locale), frame: order(`frames.${frame}.name`) });

  return (
    <section className={styles.preview} aria-labelledby={`${id}-title`} data-testid="wall-preview">
      <div className={styles.head}>
        <Heading id={`${id}-title`} className={styles.title}>
          {t('heading')}
        </Heading>
        <p className={styles.lead}>{t('lead')}</p>
      </div>
      <div role="tablist" aria-label={t('tabsLabel')} className={styles.tabs}>
        {tabs.map((key) => (
          <button
            key={key}
            ref={(el) => {
              tabRefs.current[key] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${key}`}
            aria-selected={tab === key}
            aria-controls={`${id}-panel`}
            tabIndex={tab === key ? 0 : -1}
            className={styles.tab}
            onClick={() => setTab(key)}
            onKeyDown={onTabKey}
          >
            {t(`rooms.${key}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`} className={styles.panel}>
        {tab === 'own' ? <OwnWall {...painting} /> : <RoomScene room={tab} {...painting} />}
        <p className={styles.caption} aria-live="polite">
          {caption}
          {tab !== 'own' ? <span className={styles.captionNote}>{t('wallWidth', { width: formatCm(rooms[tab].wallWidthCm, locale) })}</span> : null}
        </p>
      </div>
    </section>
  );
}

function RoomScene({ room: id, ...painting }: Omit<WallPreviewProps, 'headingLevel'> & { room: RoomId }) {
  const room = rooms[id];
  const perCm = unitsPerCm(room);
  const outer = outerCm(painting.widthCm, painting.heightCm, painting.frame);
  const centre = {
    x: room.centreX / room.viewBox.width,
    y: (room.floorY - hangCentreCm(outer.heightCm, room) * perCm) / room.viewBox.height,
  };
  const scene = {
    aspectRatio: `${room.viewBox.width} / ${room.viewBox.height}`,
    '--cm': `${(perCm / room.viewBox.width) * 100}cqw`,
  } as CSSProperties;
  return (
    <div className={styles.scene} style={scene} data-room={id} data-testid="wall-scene">
      {/* eslint-disable-next-line @next/next/no-img-element -- a static SVG drawn for the project; decorative. */}
      <img className={styles.room} src={room.src} alt="" width={room.viewBox.width} height={room.viewBox.height} loading="lazy" decoding="async" />
      <HungPainting {...painting} centre={centre} />
      <ScaleBar />
    </div>
  );
}
