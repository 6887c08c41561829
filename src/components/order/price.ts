import type { z } from 'zod';
import type { PriceTable } from '@/shared/order-schema';

/**
 * The price table as `orders.pricing` (GET /v1/pricing) sends it. The forms price a choice from it
 * with the server's own `priceOf(choice, table)` (src/shared/prices.ts), so the price shown is the
 * price charged.
 */
export type PriceTableData = z.output<typeof PriceTable>;
