import { readFileSync } from 'node:fs';
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createTranslator } from 'next-intl';
import { describe, expect, test, vi } from 'vitest';
import { db } from '@/server/db/client';
import { commonsFilePage } from '@/shared/images';
import { locales, type Locale } from '@/shared/locales';

/**
 * Each artwork page names where its picture comes from: a small link to the file's page on
 * Wikimedia Commons, under the image, with an accessible name in the page's language (issue 39,
 * item 4). The page is built from the seeded catalog through the real procedures; next-intl's
 * request config is Next's, so here it is the real messages of the page's locale.
 */
const messages = (locale: Locale) => JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8'));
let requestLocale: Locale = 'en';
vi.mock('next-intl/server', () => ({
  setRequestLocale: (locale: Locale) => void (requestLocale = locale),
  getTranslations: async (arg: string | { locale: Locale; namespace: string }) =>
    typeof arg === 'string'
      ? createTranslator({ locale: requestLocale, namespace: arg, messages: messages(requestLocale) })
      : createTranslator({ locale: arg.locale, namespace: arg.namespace, messages: messages(arg.locale) }),
  getMessages: async () => messages(requestLocale),
}));

// The page is only built here, never rendered in a browser: Next's and next-intl's navigation are stand-ins.
vi.mock('next/navigation', () => ({
  notFound: () => {
    throw new Error('notFound');
  },
  useRouter: () => ({}),
  usePathname: () => '/',
  useSearchParams: () => new URLSearchParams(),
}));
vi.mock('@/i18n/navigation', () => ({ Link: 'a', useRouter: () => ({}), usePathname: () => '/' }));

const { default: ArtworkPage } = await import('@/app/[locale]/artworks/[slug]/page');
const { ImageSource } = await import('@/app/[locale]/artworks/[slug]/_components/image-source');
const { ZoomableImage } = await import('@/app/[locale]/artworks/[slug]/_components/zoomable-image');

const unescaped = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The elements of a tree as the page returns it, without rendering the components in it. */
function* elements(node: ReactNode): Generator<ReactElement<Record<string, unknown>>> {
  if (Array.isArray(node)) for (const child of node) yield* elements(child as ReactNode);
  else if (isValidElement<Record<string, unknown>>(node)) {
    yield node;
    yield* elements(node.props.children as ReactNode);
  }
}

describe("the artwork page links its image's source on Commons", () => {
  test('under the picture, in each of the seven languages, named by its words and the work', async () => {
    const work = await db().artwork.findFirstOrThrow({
      where: { status: 'published', imageFile: { not: null } },
      orderBy: { id: 'asc' },
      select: { slug: true, imageFile: true },
    });
    const page = commonsFilePage(work.imageFile!);
    const names = new Set<string>();
    for (const locale of locales) {
      const tree = await ArtworkPage({ params: Promise.resolve({ locale, slug: work.slug }) });
      const found = [...elements(tree)].filter((e) => e.type === ImageSource);
      expect(found, locale).toHaveLength(1);
      // Next to the picture: in the figure that holds the image, right after it.
      const figure = [...elements(tree)].find((e) => [e.props.children].flat().some((child) => isValidElement(child) && child.type === ZoomableImage));
      const beside = [figure!.props.children].flat().filter(isValidElement);
      expect(beside.map((child) => child.type)).toEqual([ZoomableImage, ImageSource]);
      const props = found[0]!.props as Parameters<typeof ImageSource>[0];
      expect(props).toMatchObject({ file: work.imageFile, locale });
      const html = renderToStaticMarkup(await ImageSource(props));
      const link = /<a href="([^"]+)" aria-label="([^"]+)">([^<]+)<\/a>/.exec(html);
      expect(link, html).not.toBeNull();
      const [href, label, text] = link!.slice(1).map((part) => unescaped(part!));
      expect(href).toBe(page);
      expect(text).toBe(messages(locale).Artwork.imageSource.text);
      // WCAG 2.5.3: the accessible name starts with the words shown, then names the work.
      expect(label!.startsWith(text!), locale).toBe(true);
      expect(label).toContain(props.title);
      names.add(label!);
    }
    expect(names.size).toBe(locales.length);
  });

  test('the file page address is the Commons title: spaces as underscores, the rest percent-encoded', () => {
    const file = 'Mona Lisa, by Leonardo da Vinci, from C2RMF retouched.jpg';
    expect(commonsFilePage(file)).toBe('https://commons.wikimedia.org/wiki/File:Mona_Lisa%2C_by_Leonardo_da_Vinci%2C_from_C2RMF_retouched.jpg');
    expect(decodeURIComponent(commonsFilePage('葛飾北斎 神奈川沖浪裏.jpg').split('File:')[1]!)).toBe('葛飾北斎_神奈川沖浪裏.jpg');
  });
});
