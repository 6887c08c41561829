import 'server-only';
import { z } from 'zod';

/**
 * The Partners page's contracts (the staff dashboard's tRPC only; partner keys are not managed
 * through /v1). Allowances are per hour; the defaults leave a partner's server room for a busy
 * hour (1000 orders) while a stolen key still cannot flood the studio without limit. Uploads
 * default lower (issue 38): 100 photos of up to 20 MB are 2 GB an hour, while 1000 were 20 GB,
 * four times the default storage quota; staff raise it for a partner that sends many photos.
 */
export const DEFAULT_PARTNER_ORDERS = 1000;
export const DEFAULT_PARTNER_UPLOADS = 100;
export const MAX_PARTNER_ALLOWANCE = 100_000;

const allowance = (fallback: number) => z.int().min(1).max(MAX_PARTNER_ALLOWANCE).default(fallback);

export const CreatePartnerKey = z.object({
  name: z.string().trim().min(1).max(100),
  ordersPerHour: allowance(DEFAULT_PARTNER_ORDERS),
  uploadsPerHour: allowance(DEFAULT_PARTNER_UPLOADS),
});
export type CreatePartnerKey = z.input<typeof CreatePartnerKey>;

export const RevokePartnerKey = z.object({ id: z.uuid() });

export const PartnerKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters (`pk_live_Ab3x`), to tell keys apart. */
  prefix: z.string(),
  ordersPerHour: z.int(),
  uploadsPerHour: z.int(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  /** /v1 requests made with the key in the current clock hour (UTC), and in all. */
  requestsThisHour: z.int(),
  requestsTotal: z.int(),
  /** Orders the key placed in the current clock hour (UTC), and in all. */
  ordersThisHour: z.int(),
  ordersTotal: z.int(),
});
export type PartnerKeyView = z.output<typeof PartnerKeyView>;

/** A key just made: the list's view of it, and the key itself, which is never shown again. */
export const CreatedPartnerKey = z.object({ partner: PartnerKeyView, key: z.string() });
export type CreatedPartnerKey = z.output<typeof CreatedPartnerKey>;
