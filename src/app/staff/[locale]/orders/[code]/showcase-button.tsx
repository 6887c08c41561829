'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { staffApi } from '../../../_lib/trpc';
import styles from '../../staff.module.css';

/** The button's words, from the page (the StaffShowcase namespace is not sent to the browser). */
export interface ShowcaseLabels {
  show: string;
  remove: string;
  shown: string;
  hidden: string;
  refused: string;
  signedOut: string;
  failed: string;
}

/**
 * "Show in the gallery" / "Remove from the gallery" on a finished photo of an order whose customer
 * allowed it: the dashboard's door to POST /v1/admin/orders/{code}/photos/{id}/showcase. After the
 * change the page is read again, so what is shown is what is stored.
 */
export function ShowcaseButton({ code, id, showcased, labels }: { code: string; id: string; showcased: boolean; labels: ShowcaseLabels }) {
  const router = useRouter();
  const [outcome, setOutcome] = useState<{ kind: 'saved' | 'error'; text: string } | null>(null);
  const change = staffApi.showcasePhoto.useMutation({
    onSuccess: (photo) => {
      setOutcome({ kind: 'saved', text: photo.showcasedAt ? labels.shown : labels.hidden });
      router.refresh();
    },
    onError: (error) => {
      const text = error.data?.httpStatus === 401 ? labels.signedOut : error.data?.appCode === 'invalid_transition' ? labels.refused : labels.failed;
      setOutcome({ kind: 'error', text });
    },
  });
  return (
    <>
      <button
        type="button"
        className={styles.secondaryButton}
        disabled={change.isPending}
        onClick={() => change.mutate({ code, id, showcased: !showcased })}
        data-testid="showcase-toggle"
      >
        {showcased ? labels.remove : labels.show}
      </button>
      <span role="status" className={outcome ? (outcome.kind === 'error' ? styles.error : styles.notice) : undefined}>
        {outcome?.text}
      </span>
    </>
  );
}
