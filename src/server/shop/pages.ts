import 'server-only';
import { pagePath } from '@/shared/paths';

/**
 * The shop's information pages, in the footer's order. Each is `src/app/[locale]/<page>/page.tsx`,
 * its texts are `Legal.<page>` in messages/<locale>.json, and it is listed in the sitemap
 * (`staticPaths`). Static folders win over the `[kind]` browse route, whose kinds are only
 * museums, movements, subjects and genres.
 */
export const shopPages = ['about', 'shipping', 'returns', 'terms', 'privacy', 'imprint'] as const;
export type ShopPage = (typeof shopPages)[number];

export const shopPagePath = (page: ShopPage): string => pagePath[page]();
