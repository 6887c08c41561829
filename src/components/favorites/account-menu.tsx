'use client';

import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'next-intl';
import { Link } from '@/i18n/navigation';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';
import styles from './account.module.css';

/** The panel's widest (20rem in account.module.css). */
const PANEL_WIDTH_PX = 320;

interface User {
  email: string | null;
  name: string | null;
}

/**
 * The signed-in shopper's corner: their initial and first name, opening a small panel with their
 * e-mail, the favorites, their orders and sign-out. A disclosure (button + panel), not an ARIA
 * menu: the panel holds links and a button that Tab reaches in order; Escape and a click
 * elsewhere close it.
 */
export function AccountMenu({ user }: { user: User }) {
  const t = useTranslations('Account');
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  // The panel hangs from the button's right edge, unless that would push it off a narrow screen's left.
  const [alignStart, setAlignStart] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const utils = trpc.useUtils();
  const logout = trpc.account.logout.useMutation();

  const name = user.name?.trim() || user.email || '';
  const firstName = name.split(/\s+/)[0] ?? name;
  const initial = Array.from(name)[0]?.toUpperCase() ?? '?';

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggle.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  async function signOut() {
    setFailed(false);
    try {
      // The /v1 logout procedure ends the session row that NextAuth made and clears the same cookie.
      await logout.mutateAsync({});
      utils.account.me.setData({}, { user: null });
      void utils.account.favorites.reset();
      setOpen(false);
    } catch {
      setFailed(true);
    }
  }

  return (
    <div
      className={styles.menu}
      ref={root}
      // Tabbing out of the panel closes it, as a click elsewhere does.
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('menu', { name })}
        onClick={() => {
          const edge = toggle.current?.getBoundingClientRect().right ?? Infinity;
          setAlignStart(edge < PANEL_WIDTH_PX + 16);
          setOpen((value) => !value);
        }}
        data-account-menu
      >
        {/* The initial is drawn from an attribute, not written as text: the button's visible text is
            then the first name alone, which its name ("Account: Clara Schumann") contains, as
            WCAG 2.5.3 (label in name) asks. */}
        <span className={styles.initial} data-initial={initial} aria-hidden="true" />
        <span className={styles.name} aria-hidden="true">
          {firstName}
        </span>
        <svg className={styles.chevron} viewBox="0 0 12 12" width="12" height="12" aria-hidden="true" focusable="false">
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      </button>
      <div id={panelId} className={styles.panel} hidden={!open} data-align={alignStart ? 'start' : 'end'}>
        {user.email ? <p className={styles.who}>{t('signedInAs', { email: user.email })}</p> : null}
        <ul>
          <li>
            <Link href={pagePath.favorites()} onClick={() => setOpen(false)}>
              {t('favorites')}
            </Link>
          </li>
          <li>
            <Link href={pagePath.myOrders()} onClick={() => setOpen(false)}>
              {t('myOrders')}
            </Link>
          </li>
          <li>
            <button type="button" onClick={signOut} disabled={logout.isPending}>
              {t('signOut')}
            </button>
          </li>
        </ul>
        {failed ? (
          <p role="alert" className={styles.failed}>
            {t('signOutFailed')}
          </p>
        ) : null}
      </div>
    </div>
  );
}
