import type { AbstractIntlMessages } from 'next-intl';

/**
 * The messages the shop's client components read: whole namespaces, or `Namespace.part` for one
 * part of a namespace. Why not all: NextIntlClientProvider writes what it is given into the page's
 * RSC payload, and all namespaces are 59 KB in English (the legal texts and the staff dashboard the
 * largest), nearly half of an artwork page's HTML, rendered, sent and parsed again on every page
 * and phone. `everyPage` goes with the layout (the header, the hearts on cards); a page with client
 * components of its own wraps them in `<ClientMessages page="…">` (./client-messages-provider),
 * which adds its part. tests/unit/client-boundary.test.ts walks each page's imports and checks
 * that every `useTranslations` of a client module is covered, and that nothing listed is unused.
 */
export const CLIENT_MESSAGES = {
  // The header's account corner and language menu; the hearts on every card.
  everyPage: ['Account', 'Common', 'Favorites', 'LocaleSwitcher', 'Nav'],
  pages: {
    // The sentence under an order button; the legal pages themselves are rendered on the server.
    artwork: ['Artwork', 'Legal.orderNotice', 'OrderForm', 'WallPreview'],
    custom: ['Custom', 'Legal.orderNotice', 'OrderForm', 'WallPreview'],
    // The order page shows what was ordered with the order form's words.
    order: ['Custom', 'OrderForm', 'Orders'],
    favorites: ['Catalog'],
    // The basket shows each work with the forms' words (frames, styles) and ends with the order's terms.
    basket: ['Basket', 'Catalog', 'Custom', 'Legal.orderNotice', 'OrderForm'],
  },
} as const;

export type ClientMessagesPage = keyof typeof CLIENT_MESSAGES.pages;

/** The namespaces a page's client components get: every page's, and its own. */
export function clientNamespaces(page?: ClientMessagesPage): readonly string[] {
  return [...CLIENT_MESSAGES.everyPage, ...(page ? CLIENT_MESSAGES.pages[page] : [])];
}

/** Whether a namespace (`Orders`, `Legal.orderNotice`, `Legal.orderNotice.custom`) is among `paths`. */
export function coveredBy(namespace: string, paths: readonly string[]): boolean {
  return paths.some((path) => namespace === path || namespace.startsWith(`${path}.`));
}

/** The part of `messages` that `paths` name, nesting kept. */
export function clientMessages(messages: AbstractIntlMessages, paths: readonly string[]): AbstractIntlMessages {
  const picked: AbstractIntlMessages = {};
  for (const path of paths) {
    const keys = path.split('.');
    let from: AbstractIntlMessages | string | undefined = messages;
    let into = picked;
    keys.forEach((key, i) => {
      from = typeof from === 'object' ? from[key] : undefined;
      if (from === undefined) return;
      if (i === keys.length - 1) into[key] = from;
      else into = (into[key] ??= {}) as AbstractIntlMessages;
    });
  }
  return picked;
}
