import { getTranslations } from 'next-intl/server';
import browse from '@/components/browse/browse.module.css';
import { Link } from '@/i18n/navigation';
import { formatSize } from '@/lib/format';
import { showcaseImagePath, showcaseWidths, type Showcase, type ShowcaseItem } from '@/server/showcase/schema';
import { canvasOf } from '@/shared/canvas';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import styles from './showcase.module.css';

interface Props {
  /** The gallery as GET /v1/showcase answers it (serverApi().showcase.gallery). */
  gallery: Showcase;
  locale: Locale;
  /** How many paintings this page shows (the gallery has at most 24). */
  max?: number;
  /** Where the heading's "have yours painted" link goes (the home page points at the custom painting page); absent: no link. */
  moreHref?: string;
  /** Where "see them all" goes (the home page points at the showcase page); absent: no link. */
  allHref?: string;
  /** The page's own heading says what it is (the showcase page): the section then has none. */
  untitled?: boolean;
}

const srcSet = (id: string) => showcaseWidths.map((w) => `${showcaseImagePath(id, w)} ${w}w`).join(', ');

/**
 * "Proof of our work" (issue #15): finished paintings the studio shows with their customers'
 * consent, as each canvas hangs, in the page's language. Nothing is rendered when none is shown.
 */
export async function ShowcaseGallery({ gallery, locale, max = 8, moreHref, allHref, untitled = false }: Props) {
  const items = gallery.items.slice(0, max);
  if (items.length === 0) return null;
  const t = await getTranslations({ locale, namespace: 'Showcase' });
  const styleNames: Record<NonNullable<ShowcaseItem['style']>, string> = {
    classic: t('styles.classic'),
    impressionist: t('styles.impressionist'),
    modern: t('styles.modern'),
    vangogh: t('styles.vangogh'),
  };
  const describe = (item: ShowcaseItem) => {
    const canvas = canvasOf(item.size, item.orientation);
    const size = formatSize(canvas.widthCm, canvas.heightCm, locale);
    if (item.kind === 'custom') {
      const style = styleNames[item.style ?? 'classic'];
      return { ratio: canvas.widthCm / canvas.heightCm, title: t('customTitle', { style }), detail: t('customDetail', { size }), alt: t('customAlt', { style, size }) };
    }
    const title = item.artworkTitle ?? t('reproductionTitle');
    return {
      ratio: canvas.widthCm / canvas.heightCm,
      title,
      detail: item.artistName ? t('reproductionDetail', { artist: item.artistName, size }) : t('reproductionDetailNoArtist', { size }),
      alt: item.artworkTitle
        ? item.artistName
          ? t('reproductionAlt', { title: item.artworkTitle, artist: item.artistName, size })
          : t('reproductionAltNoArtist', { title: item.artworkTitle, size })
        : t('reproductionAltUntitled', { size }),
    };
  };

  return (
    <section className={styles.section} aria-labelledby={untitled ? undefined : 'showcase-title'} aria-label={untitled ? t('title') : undefined} data-testid="showcase-gallery">
      <div className="container">
        {untitled ? null : (
          <header className={browse.sectionHead}>
            <div>
              <h2 id="showcase-title">{t('title')}</h2>
              <p>{t('lead')}</p>
            </div>
            {allHref || moreHref ? (
              <p className={styles.links}>
                {allHref ? (
                  <Link className={styles.more} href={allHref}>
                    {t('all')}
                  </Link>
                ) : null}
                {moreHref ? (
                  <Link className={styles.more} href={moreHref}>
                    {t('more')}
                  </Link>
                ) : null}
              </p>
            ) : null}
          </header>
        )}
        <ul className={styles.grid}>
          {items.map((item) => {
            const shown = describe(item);
            const picture = (
              <div className={styles.picture} style={{ aspectRatio: String(shown.ratio) }}>
                {/* eslint-disable-next-line @next/next/no-img-element -- our own /images/showcase route draws and caches the widths */}
                <img
                  src={showcaseImagePath(item.id, 640)}
                  srcSet={srcSet(item.id)}
                  sizes="(min-width: 70rem) 16rem, (min-width: 40rem) 30vw, 45vw"
                  alt={shown.alt}
                  width={640}
                  height={Math.round(640 / shown.ratio)}
                  loading="lazy"
                  decoding="async"
                />
              </div>
            );
            return (
              <li key={item.id}>
                <figure className={styles.figure}>
                  {item.artworkSlug ? (
                    <Link href={pagePath.artwork(item.artworkSlug)} className={styles.link}>
                      {picture}
                    </Link>
                  ) : (
                    picture
                  )}
                  <figcaption className={styles.caption}>
                    <span className={styles.title}>{shown.title}</span>
                    <span>{shown.detail}</span>
                  </figcaption>
                </figure>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
