import { getTranslations } from 'next-intl/server';
import { Link } from '@/i18n/navigation';
import type { Locale } from '@/shared/locales';
import type { OrderKind } from '@/shared/orders';
import { pagePath } from '@/shared/paths';
import styles from './what-you-receive.module.css';

/** What arrives, in the order a shopper asks about it: who paints it, with what, on what, how it hangs and travels. */
const parts = ['painter', 'canvas', 'paint', 'varnish', 'mounting', 'hanging', 'packing'] as const;

interface Props {
  locale: Locale;
  /** A custom painting begins with a sketch from the customer's photo: the painter's part says so. */
  kind: OrderKind;
}

/**
 * "What you receive" (issue #42, item 5) on every artwork page and the custom painting page: the
 * materials and the work behind the price, the same for every painting of a kind, so rendered on
 * the server from the page's messages and sent with no script.
 */
export async function WhatYouReceive({ locale, kind }: Props) {
  const t = await getTranslations({ locale, namespace: 'Receive' });
  return (
    <section className={styles.section} aria-labelledby="receive-title" data-testid="what-you-receive">
      <header className={styles.head}>
        <h2 id="receive-title" className={styles.title}>
          {t('title')}
        </h2>
        <p className={styles.lead}>{t('lead')}</p>
      </header>
      <dl className={styles.parts}>
        {parts.map((part) => (
          <div key={part} className={styles.part}>
            <dt className={styles.name}>{t(`${part}.name`)}</dt>
            <dd className={styles.body}>
              {part === 'painter' ? t(`painter.${kind}`) : t.rich(`${part}.body`, { shipping: (chunks) => <Link href={pagePath.shipping()}>{chunks}</Link> })}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
