import 'server-only';
import { z } from 'zod';

/**
 * The Partners page's contracts (the staff dashboard's tRPC only; partner keys are not managed
 * through /v1). Allowances are per hour; the defaults leave a partner's server room for a busy
 * hour (1000 orders) while a stolen key still cannot flood the studio without limit.
 */
export const DEFAULT_PARTNER_ALLOWANCE = 1000;
export const MAX_PARTNER_ALLOWANCE = 100_000;

const allowance = z.int().min(1).max(MAX_PARTNER_ALLOWANCE).default(DEFAULT_PARTNER_ALLOWANCE);

export const CreatePartnerKey = z.object({
  name: z.string().trim().min(1).max(100),
  ordersPerHour: allowance,
  uploadsPerHour: allowance,
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
