import { readFileSync } from 'node:fs';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createTranslator } from 'next-intl';
import { describe, expect, test, vi } from 'vitest';
import type { Locale } from '@/shared/locales';

/**
 * The gallery section of the home and custom painting pages (issue #15): nothing at all when no
 * painting is shown; otherwise each painting with its size as the canvas hangs and alt text, in
 * the page's language. next-intl's request config and navigation are Next's; here they are the
 * real messages and a plain link.
 */
vi.mock('next-intl/server', () => ({
  getTranslations: async ({ locale, namespace }: { locale: Locale; namespace: string }) =>
    createTranslator({ locale, namespace, messages: JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) }),
}));
vi.mock('@/i18n/navigation', () => ({
  Link: ({ href, children, className }: { href: string; children: ReactNode; className?: string }) => createElement('a', { href, className }, children),
}));

const { ShowcaseGallery } = await import('@/components/showcase/showcase-gallery');

const item = {
  id: '3f0c2a52-8d0e-4c1e-9a53-1f6f0b7f9c11',
  kind: 'custom' as const,
  style: 'impressionist' as const,
  size: '50x70' as const,
  orientation: 'landscape' as const,
  artworkSlug: null,
  artworkTitle: null,
  artistName: null,
  url: '/images/showcase/3f0c2a52-8d0e-4c1e-9a53-1f6f0b7f9c11',
  at: '2026-11-24T01:00:00.000Z',
};

describe('the gallery section', () => {
  test('is not rendered at all when nothing is shown', async () => {
    expect(await ShowcaseGallery({ gallery: { items: [] }, locale: 'en' })).toBeNull();
  });

  test("shows each painting as its canvas hangs, with alt text, in the page's language", async () => {
    const reproduction = {
      ...item,
      id: '9d1e4c7a-2b3f-4a5d-8e6f-7a8b9c0d1e2f',
      kind: 'reproduction' as const,
      style: null,
      orientation: 'portrait' as const,
      size: '30x40' as const,
      artworkSlug: 'starry-night',
      artworkTitle: 'La Nuit étoilée',
      artistName: 'Vincent van Gogh',
    };
    const html = renderToStaticMarkup((await ShowcaseGallery({ gallery: { items: [item, reproduction] }, locale: 'fr', moreHref: '/custom' }))!);
    expect(html).toContain('Peint dans notre atelier');
    // Landscape 50x70 hangs 70 wide.
    expect(html).toMatch(/alt="Tableau à l’huile sur mesure terminé, style : Impressionniste, 70\s×\s50\s?cm/);
    expect(html).toContain(`srcSet="/images/showcase/${item.id}?w=320 320w`);
    expect(html).toMatch(/alt="Reproduction peinte à la main terminée de La Nuit étoilée, de Vincent van Gogh, 30\s×\s40\s?cm"/);
    expect(html).toContain('href="/artworks/starry-night"');
    expect(html).toContain('href="/custom"');
  });
});
