import { z } from '@/shared/zod';
import { CheckoutItem } from './checkout-schema';
import { MAX_CHECKOUT_ITEMS } from './orders';

/**
 * The website's basket before it is paid (docs/decisions.md "A basket"): the works a shopper put
 * aside, each as the item `POST /v1/checkouts` will take. Kept in the browser while signed out and
 * on the account while signed in (`/v1/account/basket`), merged at sign-in as favorites are.
 * Browser-safe: the basket page checks with the same schema the account's store does.
 */

/** A small picture of a custom item's photo, made in the browser: the upload itself is never shown back. */
export const MAX_THUMBNAIL_CHARS = 5000;

export const BasketEntry = z
  .object({
    id: z.uuid().describe('Made by the browser when the work was added; names the entry to change or remove it'),
    item: CheckoutItem,
    addedAt: z.iso.datetime(),
    /** Custom items: when the photo was uploaded, so the page can say when it stops being kept. */
    uploadedAt: z.iso.datetime().nullable().default(null).describe('A custom item: when its photo was uploaded (an unused photo is kept 24 hours)'),
    thumbnail: z
      .string()
      .max(MAX_THUMBNAIL_CHARS)
      .regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/, 'a data: address of a JPEG, PNG or WebP picture')
      .nullable()
      .default(null)
      .describe("A custom item: a small picture of the customer's photo, made in the browser"),
  })
  .meta({ id: 'BasketEntry' });
export type BasketEntry = z.output<typeof BasketEntry>;

export const Basket = z
  .object({ entries: z.array(BasketEntry).max(MAX_CHECKOUT_ITEMS).describe(`Oldest first; at most ${MAX_CHECKOUT_ITEMS}, what one payment takes`) })
  .meta({ id: 'Basket' });
export type Basket = z.output<typeof Basket>;
