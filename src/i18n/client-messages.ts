import type { AbstractIntlMessages } from 'next-intl';

/**
 * The messages the shop's client components read: whole namespaces, or `Namespace.part` for one
 * part of a namespace. Why not all: NextIntlClientProvider writes what it is given into every
 * page's RSC payload, and all namespaces are 59 KB in English (the legal texts and the staff
 * dashboard the largest), nearly half of an artwork page's HTML, rendered, sent and parsed again
 * on every page and phone. tests/unit/client-boundary.test.ts checks that every `useTranslations`
 * of a module in the browser bundle is covered here.
 */
export const CLIENT_MESSAGES = [
  'Account',
  'Artwork',
  'Catalog',
  'Common',
  'Custom',
  'Favorites',
  // The sentence under an order button; the legal pages themselves are rendered on the server.
  'Legal.orderNotice',
  'LocaleSwitcher',
  'Nav',
  'OrderForm',
  'Orders',
  'WallPreview',
] as const;

/** Whether a namespace (`Orders`, `Legal.orderNotice`, `Legal.orderNotice.custom`) is among `paths`. */
export function coveredBy(namespace: string, paths: readonly string[] = CLIENT_MESSAGES): boolean {
  return paths.some((path) => namespace === path || namespace.startsWith(`${path}.`));
}

/** The part of `messages` that `paths` name, nesting kept. */
export function clientMessages(messages: AbstractIntlMessages, paths: readonly string[] = CLIENT_MESSAGES): AbstractIntlMessages {
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
