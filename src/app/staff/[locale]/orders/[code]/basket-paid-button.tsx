'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { staffApi } from '../../../_lib/trpc';
import styles from '../../staff.module.css';

/** The button's words, from the page (the Staff namespace is not sent to the browser). */
export interface BasketPaidLabels {
  button: string;
  saving: string;
  saved: string;
  nothing: string;
  signedOut: string;
  failed: string;
}

/**
 * "Mark the whole basket paid": a bank transfer of the basket's total arrived, so every order of it
 * still waiting for payment moves to paid at once. The page is read again afterwards.
 */
export function BasketPaidButton({ code, labels }: { code: string; labels: BasketPaidLabels }) {
  const router = useRouter();
  const [outcome, setOutcome] = useState<{ kind: 'saved' | 'error'; text: string } | null>(null);
  const mark = staffApi.markBasketPaid.useMutation({
    onSuccess: ({ paid }) => {
      setOutcome({ kind: 'saved', text: labels.saved.replace('{codes}', paid.join(', ')) });
      router.refresh();
    },
    onError: (error) => {
      const text = error.data?.httpStatus === 401 ? labels.signedOut : error.data?.appCode === 'invalid_transition' ? labels.nothing : labels.failed;
      setOutcome({ kind: 'error', text });
    },
  });
  return (
    <p>
      <button type="button" className={styles.secondaryButton} disabled={mark.isPending} onClick={() => mark.mutate({ code })} data-testid="basket-paid">
        {mark.isPending ? labels.saving : labels.button}
      </button>{' '}
      <span role="status" className={outcome ? (outcome.kind === 'error' ? styles.error : styles.notice) : undefined}>
        {outcome?.text}
      </span>
    </p>
  );
}
