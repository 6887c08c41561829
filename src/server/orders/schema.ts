import { z } from 'zod';
import { locales } from '@/server/shared/locales';

/**
 * The order contracts (interface.md §2, decisions.md "Orders"). One schema per contract: the order
 * form, the tRPC procedures and the OpenAPI document all use these.
 */
export const sizes = ['30x40', '50x70', '60x90', '90x120'] as const;
export const frames = ['rolled', 'stretched', 'framed'] as const;
export const styles = ['classic', 'impressionist', 'modern', 'vangogh'] as const;
export const orderKinds = ['reproduction', 'custom'] as const;
export const orderStatuses = ['pending', 'paid', 'sketching', 'painting', 'drying', 'shipped', 'delivered', 'cancelled'] as const;
export const sketchStatuses = ['pending', 'approved', 'changes_requested'] as const;

export type Size = (typeof sizes)[number];
export type Frame = (typeof frames)[number];
export type Style = (typeof styles)[number];
export type OrderKind = (typeof orderKinds)[number];
export type OrderStatus = (typeof orderStatuses)[number];

export const Customer = z
  .object({
    name: z.string().trim().min(2).max(120),
    email: z.email().max(200),
    phone: z.string().max(40).optional(),
    address: z.string().trim().min(3).max(300),
    city: z.string().trim().min(1).max(120),
    postalCode: z.string().trim().min(1).max(20),
    country: z.string().length(2).transform((c) => c.toUpperCase()),
  })
  .meta({ id: 'Customer' });

const orderCommon = {
  size: z.enum(sizes),
  frame: z.enum(frames),
  locale: z.enum(locales).default('en'),
  notes: z.string().max(2000).optional(),
  customer: Customer,
};

export const CreateReproductionOrder = z
  .object({ kind: z.literal('reproduction'), ...orderCommon, artworkSlug: z.string().min(1).max(120) })
  .meta({ id: 'CreateReproductionOrder' });

export const CreateCustomOrder = z
  .object({
    kind: z.literal('custom'),
    ...orderCommon,
    uploadId: z.uuid(),
    style: z.enum(styles),
    subjects: z.int().min(1).max(8),
  })
  .meta({ id: 'CreateCustomOrder' });

/** The body of order creation: a union on `kind`. Unknown fields, and any price or status, are ignored. */
export const CreateOrder = z
  .discriminatedUnion('kind', [CreateReproductionOrder, CreateCustomOrder])
  .meta({ id: 'CreateOrder' });
export type CreateOrder = z.output<typeof CreateOrder>;

export const OrderCreated = z
  .object({
    code: z.string(),
    total: z.int().describe('Integer US cents, computed by the server'),
    checkoutUrl: z.string().nullable().describe('Payment checkout address; null when no payment provider is configured'),
  })
  .meta({ id: 'OrderCreated' });
export type OrderCreated = z.output<typeof OrderCreated>;

export const OrderEventView = z.object({
  status: z.enum(orderStatuses),
  note: z.string().nullable(),
  at: z.iso.datetime(),
});

export const OrderView = z
  .object({
    code: z.string(),
    kind: z.enum(orderKinds),
    status: z.enum(orderStatuses),
    artworkSlug: z.string().nullable(),
    size: z.enum(sizes),
    frame: z.enum(frames),
    total: z.int().describe('Integer US cents'),
    createdAt: z.iso.datetime(),
    trackingNumber: z.string().nullable(),
    sketchStatus: z.enum(sketchStatuses).nullable(),
    events: z.array(OrderEventView).describe('Order history, oldest first'),
  })
  .meta({ id: 'OrderView' });
export type OrderView = z.output<typeof OrderView>;

export const OrderLookup = z.object({
  code: z.string().min(1).max(20),
  email: z.string().min(1).max(200),
});
export type OrderLookup = z.output<typeof OrderLookup>;

export const PriceTable = z
  .object({
    currency: z.literal('usd'),
    reproduction: z.record(z.enum(sizes), z.record(z.enum(frames), z.int())).describe('Total in cents by size, then frame'),
    custom: z.object({
      multiplier: z.number().describe('A custom painting costs the reproduction price of its size and frame times this'),
      extraSubjectCents: z.int().describe('Added for every subject beyond the first'),
    }),
  })
  .meta({ id: 'PriceTable' });

// ───────────── Staff (decisions.md "Staff endpoints", "Orders") ─────────────

export const STAFF_PAGE_SIZE = 48;

export const StaffOrderQuery = z.object({
  status: z.enum(orderStatuses).optional().describe('Only orders in this status'),
  page: z.int().min(1).max(1_000_000).default(1).describe('Pages count from 1; past the end, items is empty'),
});

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : undefined));

/** The body of a staff status change. */
export const StatusChange = z
  .object({
    status: z.enum(orderStatuses),
    note: optionalText(2000).describe('Shown to the customer in the order lookup'),
    trackingNumber: optionalText(100).describe('Only with status shipped or delivered'),
    sketchStatus: z
      .enum(sketchStatuses)
      .nullish()
      .transform((v) => v ?? undefined)
      .describe('Custom orders only, with status sketching'),
  })
  .meta({ id: 'StatusChange' });
export type StatusChange = z.output<typeof StatusChange>;

export const StaffOrder = z
  .object({
    code: z.string(),
    kind: z.enum(orderKinds),
    status: z.enum(orderStatuses),
    locale: z.string(),
    artworkSlug: z.string().nullable(),
    uploadId: z.string().nullable().describe('The customer photo of a custom order (GET /admin/uploads/{id})'),
    style: z.enum(styles).nullable(),
    subjects: z.int().nullable(),
    size: z.enum(sizes),
    frame: z.enum(frames),
    notes: z.string().nullable(),
    total: z.int().describe('Integer US cents'),
    trackingNumber: z.string().nullable(),
    sketchStatus: z.enum(sketchStatuses).nullable(),
    customer: z.object({
      name: z.string(),
      email: z.string(),
      phone: z.string().nullable(),
      address: z.string(),
      city: z.string(),
      postalCode: z.string(),
      country: z.string(),
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'StaffOrder' });
export type StaffOrder = z.output<typeof StaffOrder>;

export const StaffOrderPage = z
  .object({ items: z.array(StaffOrder), total: z.int(), page: z.int(), pageSize: z.int() })
  .meta({ id: 'StaffOrderPage' });

export const StaffOrderDetail = StaffOrder.extend({
  events: z.array(OrderEventView.extend({ actor: z.enum(['customer', 'staff', 'payment', 'system']) })).describe('Oldest first'),
}).meta({ id: 'StaffOrderDetail' });
export type StaffOrderDetail = z.output<typeof StaffOrderDetail>;
