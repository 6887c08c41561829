'use client';

import type { FormEvent, ReactNode } from 'react';
import { useRouter } from 'next/navigation';

/**
 * The artworks search form. Without JavaScript it is a plain GET form (every control in the
 * address, empty ones too). With JavaScript, empty controls are left out, so the address stays the
 * short one a shopper would share, and the page changes without a full reload.
 */
export function FilterForm({ action, className, label, children }: { action: string; className?: string; label: string; children: ReactNode }) {
  const router = useRouter();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(event.currentTarget)) {
      if (typeof value === 'string' && value.trim()) query.set(key, value.trim());
    }
    const search = query.toString();
    router.push(search ? `${action}?${search}` : action);
  }
  return (
    <form className={className} role="search" aria-label={label} method="get" action={action} onSubmit={submit}>
      {children}
    </form>
  );
}
