import type { ReactNode } from 'react';
import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import { clientMessages, clientNamespaces, type ClientMessagesPage } from './client-messages';

/**
 * The messages of one page's client components (the order form, the order page…), on top of
 * every page's: a nested provider replaces the layout's for what it wraps, so it carries both.
 */
export async function ClientMessages({ page, children }: { page?: ClientMessagesPage; children: ReactNode }) {
  return <NextIntlClientProvider messages={clientMessages(await getMessages(), clientNamespaces(page))}>{children}</NextIntlClientProvider>;
}
