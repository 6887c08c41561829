import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { hasLocale } from 'next-intl';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Link } from '@/i18n/navigation';
import { routing } from '@/i18n/routing';
import { formatSize } from '@/lib/format';
import { pageMetadata } from '@/lib/seo';
import { env } from '@/server/env';
import { shopIdentity, telHref, type ShopIdentity } from '@/server/shop/identity';
import type { ShopPage } from '@/server/shop/pages';
import type { Locale } from '@/shared/locales';
import { pagePath } from '@/shared/paths';
import { leadTimes, legalValues, type LegalTag } from './values';
import styles from './legal.module.css';

/** A page's texts, as messages/<locale>.json holds them under `Legal.<page>`. */
interface PageTexts {
  sections: Record<string, Record<string, string | Record<string, string>>>;
}

/** `generateMetadata` of an information page: title, description, canonical and hreflang like every page. */
async function legalMetadata(locale: Locale, page: ShopPage): Promise<Metadata> {
  const t = await getTranslations({ locale, namespace: 'Legal' });
  const values = legalValues(shopIdentity(env()));
  return pageMetadata({ locale, path: pagePath[page](), title: t(`${page}.meta.title`, values), description: t(`${page}.meta.description`, values) });
}

interface RouteProps {
  params: Promise<{ locale: string }>;
}

/**
 * What holds for this shop as configured (the ways to pay, for example): of a list
 * (`<section>.<list>`), the items shown; of a section (`<section>`), the paragraphs shown. A list
 * or section not named shows all of it.
 */
export type ItemsShown = Record<string, readonly string[]>;

/**
 * What `app/[locale]/<page>/page.tsx` exports for an information page: its metadata and the page,
 * whose sections' placeholders `extras` fills and whose lists `shown` narrows (both computed per
 * render: they come from the settings). The file itself keeps `revalidate`, which Next reads from
 * the file's source.
 */
export function informationPage(page: ShopPage, extras: (locale: Locale) => Record<string, ReactNode> = () => ({}), shown: () => ItemsShown = () => ({})) {
  return {
    generateMetadata: async ({ params }: RouteProps): Promise<Metadata> => {
      const { locale } = await params;
      if (!hasLocale(routing.locales, locale)) return {};
      return legalMetadata(locale, page);
    },
    Page: async ({ params }: RouteProps) => {
      const { locale } = await params;
      if (!hasLocale(routing.locales, locale)) notFound();
      setRequestLocale(locale);
      return <LegalPage page={page} extras={extras(locale)} shown={shown()} />;
    },
  };
}

/** Every tag but `mail`, whose address depends on the configuration. */
const tagRenderers: Record<Exclude<LegalTag, 'mail'>, (chunks: ReactNode) => ReactNode> = {
  about: (chunks) => <Link href={pagePath.about()}>{chunks}</Link>,
  shipping: (chunks) => <Link href={pagePath.shipping()}>{chunks}</Link>,
  returns: (chunks) => <Link href={pagePath.returns()}>{chunks}</Link>,
  terms: (chunks) => <Link href={pagePath.terms()}>{chunks}</Link>,
  privacy: (chunks) => <Link href={pagePath.privacy()}>{chunks}</Link>,
  imprint: (chunks) => <Link href={pagePath.imprint()}>{chunks}</Link>,
  orders: (chunks) => <Link href={pagePath.orderLookup()}>{chunks}</Link>,
  custom: (chunks) => <Link href={pagePath.custom()}>{chunks}</Link>,
  stripe: (chunks) => (
    <a href="https://stripe.com/privacy" rel="noopener noreferrer">
      {chunks}
    </a>
  ),
  strong: (chunks) => <strong>{chunks}</strong>,
};

/**
 * One of the shop's information pages: heading and lead, then each section of `Legal.<page>.sections`
 * in the order the messages list them. In a section, `title` is its heading, keys starting with `p`
 * are paragraphs and keys starting with `list` are bulleted lists (of the items `shown` keeps);
 * `extras` adds a block (the shop's details, the lead-time table) after a section's text.
 */
async function LegalPage({ page, extras, shown }: { page: ShopPage; extras: Record<string, ReactNode>; shown: ItemsShown }) {
  const [t, common] = await Promise.all([getTranslations('Legal'), getTranslations('Legal.common')]);
  const identity = shopIdentity(env());
  const values = legalValues(identity);
  const tags = { ...tagRenderers, mail: (chunks: ReactNode) => <a href={`mailto:${identity.email}`}>{chunks}</a> };
  const texts = t.raw(page as never) as PageTexts;
  // Keys come from the messages themselves; the typed `t` cannot know them, hence the casts.
  const rich = (key: string) => t.rich(key as never, { ...values, ...tags } as never);

  return (
    <article className="container">
      <header className="page-head">
        <Breadcrumbs items={[{ name: t(`nav.${page}`) }]} />
        <h1>{t(`${page}.title`, values)}</h1>
        <p>{rich(`${page}.lead`)}</p>
      </header>
      <div className={`page-section ${styles.body}`}>
        {identity.demo ? (
          <p className={styles.demo} role="note">
            {common('demo')}
          </p>
        ) : null}
        {Object.entries(texts.sections).map(([section, parts]) => (
          <section key={section} id={section} aria-labelledby={`${section}-title`}>
            <h2 id={`${section}-title`}>{t(`${page}.sections.${section}.title` as never, values as never)}</h2>
            {Object.entries(parts).map(([part, value]) => {
              const key = `${page}.sections.${section}.${part}`;
              if (part.startsWith('p')) return (shown[section]?.includes(part) ?? true) ? <p key={part}>{rich(key)}</p> : null;
              if (part.startsWith('list') && typeof value === 'object') {
                return (
                  <ul key={part}>
                    {Object.keys(value)
                      .filter((item) => shown[`${section}.${part}`]?.includes(item) ?? true)
                      .map((item) => (
                        <li key={item}>{rich(`${key}.${item}`)}</li>
                      ))}
                  </ul>
                );
              }
              return null;
            })}
            {extras[section] ?? null}
          </section>
        ))}
      </div>
    </article>
  );
}

/** The shop's identity as a list: name, address, e-mail, telephone, VAT number, who is responsible. */
export async function ShopDetails({
  identity = shopIdentity(env()),
  show = ['legalName', 'address', 'email', 'phone'],
}: {
  identity?: ShopIdentity;
  show?: ('legalName' | 'address' | 'email' | 'phone' | 'vatId' | 'responsible')[];
}) {
  const t = await getTranslations('Legal.details');
  const rows: { key: string; label: string; value: ReactNode }[] = [];
  for (const key of show) {
    if (key === 'legalName') rows.push({ key, label: t('legalName'), value: identity.legalName });
    if (key === 'address') {
      rows.push({
        key,
        label: t('address'),
        value: (
          <address>
            {identity.address.map((line, i) => (
              <span key={i}>{line}</span>
            ))}
          </address>
        ),
      });
    }
    if (key === 'email') rows.push({ key, label: t('email'), value: <a href={`mailto:${identity.email}`}>{identity.email}</a> });
    if (key === 'phone' && identity.phone) rows.push({ key, label: t('phone'), value: <a href={telHref(identity.phone)}>{identity.phone}</a> });
    if (key === 'vatId' && identity.vatId) rows.push({ key, label: t('vatId'), value: identity.vatId });
    if (key === 'responsible') rows.push({ key, label: t('responsible'), value: identity.responsible });
  }
  return (
    <dl className={styles.details}>
      {rows.map((row) => (
        <div key={row.key}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The shipping page's table: painting and drying time per size. */
export async function LeadTimeTable({ locale }: { locale: Locale }) {
  const t = await getTranslations('Legal.shipping.table');
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption>{t('caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('size')}</th>
            <th scope="col">{t('painting')}</th>
            <th scope="col">{t('drying')}</th>
          </tr>
        </thead>
        <tbody>
          {leadTimes.map((row) => (
            <tr key={row.size}>
              <th scope="row">{formatSize(row.widthCm, row.heightCm, locale)}</th>
              <td>{t('workingDays', { count: row.paintingDays })}</td>
              <td>{t('days', { count: row.dryingDays })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
