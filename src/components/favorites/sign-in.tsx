'use client';

import { useState, type ReactNode } from 'react';
import { buttonClass, type ButtonVariant } from '@/components/ui/button';
import styles from './favorites.module.css';

/**
 * Starts NextAuth's Google redirect sign-in (the same thing its own sign-in page does): a
 * form POST to /api/auth/signin/google with NextAuth's CSRF token, which answers with a redirect
 * to Google. Coming back, the shopper lands on `callbackUrl`, the page they were on.
 * A plain form instead of next-auth/react keeps that library out of every page's script.
 */
export async function startGoogleSignIn(callbackUrl: string = window.location.href): Promise<void> {
  const answer = await fetch('/api/auth/csrf', { credentials: 'same-origin', cache: 'no-store' });
  if (!answer.ok) throw new Error(`csrf ${answer.status}`);
  const { csrfToken } = (await answer.json()) as { csrfToken: string };
  const form = document.createElement('form');
  form.method = 'post';
  form.action = '/api/auth/signin/google';
  form.hidden = true;
  for (const [name, value] of [
    ['csrfToken', csrfToken],
    ['callbackUrl', callbackUrl],
  ] as const) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

interface Props {
  children: ReactNode;
  variant?: ButtonVariant;
  className?: string;
  /** Where to come back to; the current page when not given. */
  callbackUrl?: string;
  failedText: string;
}

/** A button that starts the Google sign-in; says so when the shop cannot be reached. */
export function SignInButton({ children, variant = 'secondary', className, callbackUrl, failedText }: Props) {
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  async function go() {
    setState('busy');
    try {
      await startGoogleSignIn(callbackUrl);
    } catch {
      setState('failed');
    }
  }
  return (
    <>
      <button type="button" className={buttonClass(variant, false, className)} onClick={go} aria-busy={state === 'busy' || undefined} data-sign-in>
        <GoogleMark />
        {children}
      </button>
      {state === 'failed' ? (
        <span role="alert" className={styles.failed}>
          {failedText}
        </span>
      ) : null}
    </>
  );
}

/** Google's "G", drawn in its own colours, as sign-in buttons are expected to show it. */
function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.2C12.5 13.6 17.8 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.8c4.3-4 6.9-9.9 6.9-17.2z" />
      <path fill="#FBBC05" d="M10.5 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.2C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6.1z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.8-5.8l-7.4-5.8c-2.1 1.4-4.8 2.3-8.4 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}
