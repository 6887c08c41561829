import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { NextIntlClientProvider } from 'next-intl';
import { describe, expect, test } from 'vitest';
import { SiteSearch } from '@/components/site/site-search';

/**
 * The header's search box as the server sends it, before any JavaScript: a plain GET form to the
 * grid whose input is already an ARIA 1.2 combobox pointing at its (empty, hidden) listbox.
 * (No DOM here: the keyboard behaviour is checked in a browser.)
 */
const render = (locale: 'en' | 'ja') =>
  renderToStaticMarkup(
    createElement(NextIntlClientProvider, {
      locale,
      timeZone: 'UTC',
      messages: JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')),
      children: createElement(SiteSearch, { locale }),
    }),
  );

describe('header search', () => {
  test('works without JavaScript: a GET form to the grid with a q input and a submit button', () => {
    const html = render('en');
    expect(html).toMatch(/<form[^>]*role="search"[^>]*action="\/en\/artworks"[^>]*method="get"/);
    expect(html).toMatch(/<input[^>]*id="site-search"[^>]*name="q"/);
    expect(html).toMatch(/<button type="submit">Search<\/button>/);
    expect(html).toMatch(/<label[^>]*for="site-search"/);
  });

  test('is a combobox controlling a listbox, collapsed, with no active option', () => {
    const html = render('ja');
    const input = html.match(/<input[^>]*>/)![0];
    expect(input).toMatch(/role="combobox"/);
    expect(input).toMatch(/aria-expanded="false"/);
    expect(input).toMatch(/aria-autocomplete="list"/);
    expect(input).not.toMatch(/aria-activedescendant/);
    const controls = input.match(/aria-controls="([^"]+)"/)![1];
    expect(html).toContain(`<ul id="${controls}" role="listbox" aria-label="候補"`);
    expect(html).toMatch(/role="listbox"[^>]*hidden=""/);
    expect(input).toMatch(/placeholder="絵画・画家を検索…"/);
  });
});
