'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { formatDate, formatUsd } from '@/lib/format';
import { ibanInGroups, type BankAccount } from '@/shared/payment';
import css from './order-status.module.css';

/** One line of a transfer: what the bank's form calls it, what it shows, and what is copied into it. */
export interface TransferLine {
  field: 'accountHolder' | 'iban' | 'bic' | 'bankName' | 'amount' | 'reference';
  shown: string;
  copied: string;
}

/**
 * Everything a bank's transfer form asks, in its order: the account (holder, IBAN in groups of four,
 * BIC and bank when the studio gave them), the amount and the reference. What is copied is what a
 * form takes: the IBAN without spaces, the amount as a plain number.
 */
export function transferLines(bank: BankAccount, cents: number, reference: string, locale: string): TransferLine[] {
  return [
    { field: 'accountHolder', shown: bank.accountHolder, copied: bank.accountHolder },
    { field: 'iban', shown: ibanInGroups(bank.iban), copied: bank.iban },
    ...(bank.bic ? [{ field: 'bic' as const, shown: bank.bic, copied: bank.bic }] : []),
    ...(bank.bankName ? [{ field: 'bankName' as const, shown: bank.bankName, copied: bank.bankName }] : []),
    { field: 'amount', shown: formatUsd(cents, locale), copied: (cents / 100).toFixed(2) },
    { field: 'reference', shown: reference, copied: reference },
  ];
}

/**
 * How to pay by transfer: the lead (`or` beside the card payment, when the shop takes both), the
 * account with the amount and reference, and the studio's note. The order and the basket pages both show it.
 */
export function PayByTransfer({
  bank,
  cents,
  reference,
  note,
  lead = 'lead',
}: {
  bank: BankAccount;
  cents: number;
  reference: string;
  note: string | null;
  lead?: 'lead' | 'or';
}) {
  const t = useTranslations('Orders.order.payment.transfer');
  return (
    <>
      <p>{t(lead)}</p>
      <TransferDetails bank={bank} cents={cents} reference={reference} />
      {note ? (
        <p className={css.instructions} data-testid="payment-instructions">
          {note}
        </p>
      ) : null}
    </>
  );
}

/** The last day to pay before the shop cancels the order unpaid. */
export function PayBy({ date }: { date: string }) {
  const t = useTranslations('Orders.order.payment');
  const locale = useLocale();
  return (
    <p className={css.payBy} data-testid="pay-by">
      {t('payBy', { date: formatDate(date, locale) })}
    </p>
  );
}

/** The studio's bank account, the amount and the reference (an order's code, or its basket's), each with a copy button. */
function TransferDetails({ bank, cents, reference }: { bank: BankAccount; cents: number; reference: string }) {
  const t = useTranslations('Orders.order.payment.transfer');
  const locale = useLocale();
  return (
    <dl className={css.transfer} data-testid="transfer-details">
      {transferLines(bank, cents, reference, locale).map((line) => (
        <div key={line.field} className={css.transferLine}>
          <dt>{t(`fields.${line.field}`)}</dt>
          <dd>
            <span className={line.field === 'iban' || line.field === 'reference' ? css.code : undefined} data-testid={`transfer-${line.field}`}>
              {line.shown}
            </span>
            <CopyButton text={line.copied} what={t(`fields.${line.field}`)} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Copies one value, and says so for a moment (to screen readers too). Without a clipboard (an insecure page) nothing happens. */
function CopyButton({ text, what }: { text: string; what: string }) {
  const t = useTranslations('Orders.order.payment.transfer');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () =>
    navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => undefined,
    );
  return (
    <>
      <button type="button" className={css.copy} onClick={copy} data-copied={copied || undefined}>
        {copied ? t('copied') : t('copy')}
        <span className="visually-hidden"> {what}</span>
      </button>
      <span role="status" className="visually-hidden">
        {copied ? t('copiedWhat', { what }) : ''}
      </span>
    </>
  );
}
