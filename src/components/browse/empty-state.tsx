import type { ReactNode } from 'react';
import styles from './browse.module.css';

/** A calm, helpful "nothing here": what happened, and what to try next (links passed as children). */
export function EmptyState({ title, body, children }: { title: string; body?: string; children?: ReactNode }) {
  return (
    <div className={styles.empty} role="status">
      <p className={styles.emptyTitle}>{title}</p>
      {body ? <p className={styles.emptyBody}>{body}</p> : null}
      {children ? <div className={styles.emptyActions}>{children}</div> : null}
    </div>
  );
}
