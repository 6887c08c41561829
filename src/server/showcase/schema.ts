import 'server-only';
import { z } from 'zod';
import { orientations, sizes } from '@/shared/canvas';
import { locales } from '@/shared/locales';
import { StaffOrderPhotoView } from '@/shared/order-schema';
import { orderKinds, styles } from '@/shared/orders';

/**
 * "Proof of our work" (issue #15, item 5): finished paintings staff chose to show, from orders
 * whose customer allowed it (`showcaseConsent`). Never the customer's own photo, never a name.
 */

/** The most paintings the gallery lists. */
export const SHOWCASE_LIMIT = 24;

/** The widths the showcase image route draws (a subset of the catalog's), and the one `url` names. */
export const showcaseWidths = [320, 640, 960, 1600] as const;
export type ShowcaseWidth = (typeof showcaseWidths)[number];
export const DEFAULT_SHOWCASE_WIDTH: ShowcaseWidth = 960;

/** Where a shown photo is served to anyone (src/app/images/showcase/[id]/route.ts). */
export const showcaseImagePath = (id: string, width?: ShowcaseWidth) => `/images/showcase/${id}${width ? `?w=${width}` : ''}`;

export const ShowcaseQuery = z.object({
  locale: z.enum(locales).default('en').describe('The language of artwork titles and artist names (English where none)'),
});

export const ShowcaseItem = z
  .object({
    id: z.uuid().describe("The photo's id"),
    kind: z.enum(orderKinds),
    style: z.enum(styles).nullable().describe('Custom paintings only'),
    size: z.enum(sizes),
    orientation: z.enum(orientations).describe('How the canvas hangs; width × height is canvasOf(size, orientation)'),
    artworkSlug: z.string().nullable().describe('The reproduced artwork, while it is in the published catalog; null for custom paintings'),
    artworkTitle: z.string().nullable().describe("The reproduced artwork's title in the asked language (English where none)"),
    artistName: z.string().nullable().describe("The reproduced artwork's artist"),
    url: z
      .string()
      .describe(`Root-relative address of the photo (${showcaseImagePath('{id}')}), ${DEFAULT_SHOWCASE_WIDTH} px wide; add ?w=${showcaseWidths.join('|')} for another width`),
    at: z.iso.datetime().describe('When the studio put it in the gallery'),
  })
  .meta({ id: 'ShowcaseItem' });
export type ShowcaseItem = z.output<typeof ShowcaseItem>;

export const Showcase = z
  .object({ items: z.array(ShowcaseItem).max(SHOWCASE_LIMIT).describe(`Newest in the gallery first, at most ${SHOWCASE_LIMIT}`) })
  .meta({ id: 'Showcase' });
export type Showcase = z.output<typeof Showcase>;

/** The body of `POST /v1/admin/orders/{code}/photos/{id}/showcase`. */
export const ShowcaseChange = z.object({ showcased: z.boolean().describe('true: show it in the public gallery; false: take it down') }).meta({ id: 'ShowcaseChange' });

/** A studio photo as staff see it, with whether (since when) it is in the gallery. */
export const StaffShowcasePhoto = StaffOrderPhotoView;
export type StaffShowcasePhoto = StaffOrderPhotoView;

/** The dashboard's input: the order, the photo, and whether to show it. */
export const DashboardShowcase = ShowcaseChange.extend({
  code: z.string().trim().min(1).max(20),
  id: z.uuid(),
});
