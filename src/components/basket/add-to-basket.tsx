'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Link } from '@/i18n/navigation';
import type { CheckoutItem } from '@/shared/checkout-schema';
import { pagePath } from '@/shared/paths';
import { useBasket, type AddOutcome, type PhotoKept } from './use-basket';
import styles from './basket.module.css';

interface Props {
  /** The work as the form has it now, or null when something is missing (the form then says what). */
  item: () => CheckoutItem | null;
  /** A custom item's photo, as the basket keeps it. */
  photo?: () => Promise<PhotoKept>;
}

/**
 * "Add to basket", beside the order button of both forms: the work as chosen goes into the basket
 * (no customer details needed yet) and the shopper can go on browsing or open the basket.
 */
export function AddToBasket({ item, photo }: Props) {
  const t = useTranslations('OrderForm.basket');
  const { add, entries, status } = useBasket();
  const [outcome, setOutcome] = useState<AddOutcome | 'adding' | null>(null);

  const onAdd = async () => {
    const chosen = item();
    if (!chosen) return;
    setOutcome('adding');
    setOutcome(await add(chosen, photo ? await photo() : undefined));
  };

  return (
    <div className={styles.add}>
      <Button wide onClick={onAdd} disabled={outcome === 'adding' || status === 'loading'} data-testid="add-to-basket">
        {outcome === 'adding' ? t('adding') : t('add')}
      </Button>
      <p className={styles.addNote} role="status">
        {outcome === 'added' ? (
          <>
            {t('added', { count: entries.length })} <Link href={pagePath.shoppingBasket()}>{t('open')}</Link>
          </>
        ) : outcome === 'full' ? (
          <>
            {t('full')} <Link href={pagePath.shoppingBasket()}>{t('open')}</Link>
          </>
        ) : outcome === 'failed' ? (
          t('failed')
        ) : null}
      </p>
    </div>
  );
}
