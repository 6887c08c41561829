'use client';

import { useEffect, useRef, type ReactNode } from 'react';
import { usePathname } from 'next/navigation';
import styles from './site.module.css';

/**
 * The shop's sections behind "Menu" on a phone, every one of them in a list when opened; from
 * 40rem the list is simply shown and the button goes (CSS). A native disclosure, so it opens
 * before and without JavaScript; once the page is live it closes when the shopper moves to another
 * page (the layout, and so the open menu, stays across navigations) or presses Escape.
 */
export function SiteMenu({ label, children }: { label: string; children: ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();

  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  return (
    <details
      ref={menu}
      className={styles.menu}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !menu.current?.open) return;
        menu.current.open = false;
        menu.current.querySelector('summary')?.focus();
      }}
    >
      <summary className={styles.menuButton}>
        <span className={styles.menuIcon} aria-hidden="true" />
        {label}
      </summary>
      {children}
    </details>
  );
}
