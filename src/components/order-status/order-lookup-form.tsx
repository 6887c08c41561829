'use client';

import { TRPCClientError } from '@trpc/client';
import { useTranslations } from 'next-intl';
import { useId, useState, type FormEvent } from 'react';
import { z } from '@/shared/zod';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useRouter } from '@/i18n/navigation';
import { OrderLookup, type OrderView } from '@/shared/order-schema';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import { foldOrderCode } from './order-code';
import { rememberEmail } from './remembered-email';
import css from './order-status.module.css';

type FieldKey = 'code' | 'email';
type Problem = 'required' | 'tooLong' | 'email';

interface Props {
  /** On an order's own page the code is known: only the e-mail is asked for. */
  code?: string;
  /** Called with the order found; without it the form goes to the order's page. */
  onFound?: (order: OrderView, email: string) => void;
}

const emailFormat = z.email();

/**
 * Order code + e-mail → the order, through `orders.byCode` (GET /v1/orders/{code}). A wrong e-mail
 * and an unknown code get the same calm answer, as the server gives them: nothing is revealed.
 */
export function OrderLookupForm({ code: fixedCode, onFound }: Props) {
  const t = useTranslations('Orders.lookup');
  const id = useId();
  const router = useRouter();
  const utils = trpc.useUtils();
  const [code, setCode] = useState(fixedCode ?? '');
  const [email, setEmail] = useState('');
  const [problems, setProblems] = useState<Partial<Record<FieldKey, Problem>>>({});
  const [outcome, setOutcome] = useState<'notFound' | 'rateLimited' | 'failed' | null>(null);
  const [busy, setBusy] = useState(false);

  const check = () => {
    const found: Partial<Record<FieldKey, Problem>> = {};
    const parsed = OrderLookup.safeParse({ code: code.trim(), email: email.trim() });
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldKey;
        found[field] ??= issue.code === 'too_big' ? 'tooLong' : 'required';
      }
    if (!found.email && !emailFormat.safeParse(email.trim()).success) found.email = 'email';
    return found;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    const found = check();
    setProblems(found);
    const first = (['code', 'email'] as const).find((f) => found[f]);
    if (first) return document.getElementById(`${id}-${first}`)?.focus();

    const input = { code: foldOrderCode(code), email: email.trim() };
    setBusy(true);
    try {
      const answer = await utils.orders.byCode.fetch(input, { staleTime: 0 });
      const { order } = answer;
      rememberEmail(order.code, input.email);
      // The order page asks with the canonical code: hand it the answer so it shows at once.
      utils.orders.byCode.setData({ code: order.code, email: input.email }, answer);
      if (onFound) {
        setBusy(false);
        onFound(order, input.email);
      } else router.push(pagePath.order(order.code));
    } catch (error) {
      setBusy(false);
      const code = error instanceof TRPCClientError ? (error.data as { code?: string } | undefined)?.code : undefined;
      setOutcome(code === 'NOT_FOUND' ? 'notFound' : code === 'TOO_MANY_REQUESTS' ? 'rateLimited' : 'failed');
    }
  };

  const message = (field: FieldKey) => (problems[field] ? t(`errors.${problems[field]}`) : null);

  return (
    <form className={css.lookup} onSubmit={onSubmit} noValidate>
      {fixedCode ? null : (
        <TextField
          id={`${id}-code`}
          label={t('code')}
          hint={t('codeHint')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={message('code')}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          className={css.codeInput}
          required
        />
      )}
      <TextField
        id={`${id}-email`}
        label={t('email')}
        hint={t('emailHint')}
        type="email"
        inputMode="email"
        autoComplete="email"
        spellCheck={false}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={message('email')}
        maxLength={200}
        required
      />
      {outcome ? (
        <div className={css.lookupOutcome} role="alert" data-outcome={outcome}>
          <p className={css.lookupOutcomeTitle}>{t(`${outcome}.title`)}</p>
          <p>{t(`${outcome}.body`)}</p>
        </div>
      ) : null}
      <Button type="submit" variant="primary" disabled={busy} aria-busy={busy || undefined}>
        {busy ? t('searching') : fixedCode ? t('submitKnown') : t('submit')}
      </Button>
    </form>
  );
}
