import { existsSync, readFileSync } from 'node:fs';
import { createTranslator } from 'next-intl';
import { describe, expect, test } from 'vitest';
import { paymentPrivacyParts, paymentTermItems } from '@/components/legal/payment-terms';
import { legalTags, legalValues } from '@/components/legal/values';
import { parseEnv } from '@/server/env';
import { shopIdentity } from '@/server/shop/identity';
import { shopPages } from '@/server/shop/pages';
import { taxonKinds } from '@/shared/catalog';
import { paymentModes } from '@/shared/payment';
import { locales } from '@/shared/locales';
import { pagePath, staticPaths } from '@/shared/paths';
import { keysOf } from '../../scripts/messages';

type Tree = { [key: string]: string | Tree };
const messagesOf = (locale: string) => JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as Tree;

const identities = {
  demo: shopIdentity(parseEnv({})),
  configured: shopIdentity(
    parseEnv({
      SHOP_NAME: 'Atelier Rosa',
      SHOP_LEGAL_NAME: 'Rosa Malerei GmbH',
      SHOP_ADDRESS: 'Leinwandweg 4|10115 Berlin|Deutschland',
      SHOP_EMAIL: 'hallo@atelier-rosa.de',
      PHOTO_RETENTION_DAYS: '1',
    }),
  ),
};

/** Every tag rendered as [text], as the pages render them as links. */
const tagStrings = Object.fromEntries(legalTags.map((tag) => [tag, (chunks: string) => `[${chunks}]`]));

describe('the shop information pages', () => {
  test('each page has its route, its address, and a place in the sitemap', () => {
    for (const page of shopPages) {
      expect(existsSync(new URL(`../../src/app/[locale]/${page}/page.tsx`, import.meta.url)), page).toBe(true);
      expect(pagePath[page]()).toBe(`/${page}`);
      expect(staticPaths).toContain(`/${page}`);
    }
    // Static folders must not be browse kinds, which `[kind]` serves.
    expect(shopPages.filter((page) => (taxonKinds as readonly string[]).includes(page))).toEqual([]);
  });

  test.each(locales)('%s: every page has a title, description, lead and sections with text', (locale) => {
    const legal = messagesOf(locale).Legal as Tree;
    expect(legal, locale).toBeDefined();
    for (const page of shopPages) {
      const texts = legal[page] as Tree;
      expect(texts, `${locale} ${page}`).toBeDefined();
      const meta = texts.meta as Tree;
      for (const key of ['title', 'description']) expect(typeof meta[key], `${locale} ${page}.meta.${key}`).toBe('string');
      for (const key of ['title', 'lead']) expect(typeof texts[key], `${locale} ${page}.${key}`).toBe('string');
      expect(typeof (legal.nav as Tree)[page], `${locale} nav.${page}`).toBe('string');
      const sections = Object.entries(texts.sections as Tree);
      expect(sections.length, `${locale} ${page}`).toBeGreaterThanOrEqual(2);
      for (const [name, section] of sections) {
        // A section's key is its element id (an anchor such as /about#contact): `content` is the main landmark's.
        expect(name, `${locale} ${page}`).not.toBe('content');
        const parts = Object.keys(section as Tree);
        expect(parts, `${locale} ${page}.${name}`).toContain('title');
        expect(
          parts.some((part) => part.startsWith('p') || part.startsWith('list')),
          `${locale} ${page}.${name} has no text`,
        ).toBe(true);
      }
    }
  });

  for (const [kind, identity] of Object.entries(identities)) {
    test.each(locales)(`%s: every string formats with the ${kind} identity, leaving no placeholder`, (locale) => {
      const messages = messagesOf(locale);
      const errors: string[] = [];
      const t = createTranslator({ locale, messages, namespace: 'Legal', onError: (error) => errors.push(error.message), getMessageFallback: ({ key }) => `⟦${key}⟧` });
      const values = { ...legalValues(identity), count: 7, ...tagStrings };
      const out = keysOf(messages.Legal as Tree).map((key) => [key, t.markup(key as never, values as never)] as const);
      expect(errors).toEqual([]);
      for (const [key, text] of out) {
        expect(text.trim(), `${locale} ${key}`).not.toBe('');
        expect(text, `${locale} ${key}`).not.toMatch(/[{}<>⟦⟧#]/);
      }
      const all = out.map(([, text]) => text).join('\n');
      // The configured values reach the shopper's text.
      expect(all).toContain(identity.email);
      expect(all).toContain(identity.legalName);
      expect(all).toContain(identity.name);
      expect(t.markup('privacy.sections.photos.list.i3' as never, values as never)).toContain(String(identity.photoRetentionDays));
      // The terms and the privacy notice promise what the unpaid-orders job and retention do.
      const unpaid = t.markup('terms.sections.payment.list.unpaid' as never, values as never);
      expect(unpaid).toContain(String(identity.unpaidRemindDays));
      expect(unpaid).toContain(String(identity.unpaidCancelDays));
      expect(t.markup('privacy.sections.photos.list.i5' as never, values as never)).toContain('7');
    });
  }

  test.each(locales)('%s: the terms give each way of paying its own item, and only the unpaid rule holds for every shop', (locale) => {
    const list = ((((messagesOf(locale).Legal as Tree).terms as Tree).sections as Tree).payment as Tree).list as Tree;
    const used = new Set(paymentModes.flatMap((mode) => paymentTermItems[mode]));
    expect(Object.keys(list).sort(), locale).toEqual([...used].sort());
    for (const mode of paymentModes) expect(paymentTermItems[mode], mode).toContain('unpaid');
    // Only a shop with a payment provider names Stripe or paying online.
    for (const mode of paymentModes.filter((m) => m !== 'online' && m !== 'both')) {
      for (const item of paymentTermItems[mode]) expect(list[item], `${locale} ${mode} ${item}`).not.toMatch(/Stripe/);
    }
    expect(list.card).toMatch(/Stripe/);
  });

  test.each(locales)('%s: the privacy notice names Stripe only where it takes the payment', (locale) => {
    const sections = ((messagesOf(locale).Legal as Tree).privacy as Tree).sections as Tree as Record<'payment' | 'sharing', Tree>;
    for (const mode of paymentModes) {
      for (const name of ['payment', 'sharing'] as const) {
        const parts = paymentPrivacyParts[mode][name];
        for (const part of parts) expect(typeof sections[name][part], `${locale} ${mode} ${name}.${part}`).toBe('string');
        const text = parts.map((part) => sections[name][part]).join(' ');
        if (mode === 'online' || mode === 'both') expect(text, `${locale} ${mode} ${name}`).toMatch(/Stripe/);
        else expect(text, `${locale} ${mode} ${name}`).not.toMatch(/Stripe/);
      }
    }
  });

  test('the text under the order buttons links to the terms and the privacy notice in every language', () => {
    for (const locale of locales) {
      const t = createTranslator({ locale, messages: messagesOf(locale), namespace: 'Legal' });
      for (const kind of ['order', 'custom']) {
        const text = t.markup(`orderNotice.${kind}` as never, { terms: (c: string) => `[T:${c}]`, privacy: (c: string) => `[P:${c}]` } as never);
        expect(text, `${locale} ${kind}`).toMatch(/\[T:[^\]]+\]/);
        expect(text, `${locale} ${kind}`).toMatch(/\[P:[^\]]+\]/);
      }
    }
  });
});
