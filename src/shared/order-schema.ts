import { z } from '@/shared/zod';
import { fits, frames, orientations, sizes } from './canvas';
import { carriers } from './carriers';
import { locales } from './locales';
import { eventActors, orderKinds, orderStatuses, photoKinds, sketchDecisions, sketchStatuses, styles, subjectLimits } from './orders';
import { paymentStates, refundMethods } from './payment';

/**
 * The order contracts (interface.md §2, decisions.md "Orders"). One schema per contract: the order
 * form, the tRPC procedures and the OpenAPI document all use these; every list of values comes from
 * the shared lists (canvas.ts, orders.ts, locales.ts). Browser-safe: the forms check with them.
 */

export const Customer = z
  .object({
    name: z.string().trim().min(2).max(120),
    email: z.email().max(200),
    phone: z.string().max(40).optional(),
    address: z.string().trim().min(3).max(300),
    city: z.string().trim().min(1).max(120),
    postalCode: z.string().trim().min(1).max(20),
    country: z
      .string()
      .length(2)
      .transform((c) => c.toUpperCase()),
  })
  .meta({ id: 'Customer' });

const orderCommon = {
  size: z.enum(sizes),
  frame: z.enum(frames),
  locale: z.enum(locales).default('en'),
  notes: z.string().max(2000).optional(),
  customer: Customer,
  orientation: z
    .enum(orientations)
    .optional()
    .describe("How the canvas hangs (portrait: short edge horizontal). Absent: the artwork's orientation, or the photo's as measured at upload"),
  showcaseConsent: z.boolean().default(false).describe('The customer allows the studio to show the finished painting (never their photo or name)'),
};

export const CreateReproductionOrder = z
  .object({
    kind: z.literal('reproduction'),
    ...orderCommon,
    artworkSlug: z.string().min(1).max(120),
    fit: z
      .enum(fits)
      .default('whole')
      .describe("Where the work's proportions differ from the canvas: `whole` keeps the whole composition and extends the background, `crop` fills the canvas"),
  })
  .meta({ id: 'CreateReproductionOrder' });

export const CreateCustomOrder = z
  .object({
    kind: z.literal('custom'),
    ...orderCommon,
    uploadId: z.uuid(),
    style: z.enum(styles),
    subjects: z.int().min(subjectLimits.min).max(subjectLimits.max),
    // A custom painting is composed from the photo by the painter: there is nothing to fit.
    fit: z.never({ error: 'fit is for reproductions only' }).optional().describe('Not allowed on a custom order (400)'),
  })
  .meta({ id: 'CreateCustomOrder' });

/** The body of order creation: a union on `kind`. Unknown fields, and any price or status, are ignored. */
export const CreateOrder = z.discriminatedUnion('kind', [CreateReproductionOrder, CreateCustomOrder]).meta({ id: 'CreateOrder' });
export type CreateOrder = z.output<typeof CreateOrder>;

export const OrderCreated = z
  .object({
    code: z.string(),
    total: z.int().describe('Integer US cents, computed by the server'),
    checkoutUrl: z.string().nullable().describe('Payment checkout address; null when no payment provider is configured'),
  })
  .meta({ id: 'OrderCreated' });
export type OrderCreated = z.output<typeof OrderCreated>;

/** A range of days (`YYYY-MM-DD`, UTC) a painting should arrive in. */
export const DeliveryWindowView = z.object({ earliest: z.iso.date(), latest: z.iso.date() }).meta({ id: 'DeliveryWindow' });

/** A photo on an order's timeline; `url` is where the asker may read it (signed and expiring for the customer). */
export const OrderPhotoView = z
  .object({
    id: z.uuid(),
    kind: z.enum(photoKinds),
    url: z.string().describe('In an order lookup: a signed address under /v1/orders/{code}/photos/{id} that expires after one hour'),
    at: z.iso.datetime(),
  })
  .meta({ id: 'OrderPhoto' });
export type OrderPhotoView = z.output<typeof OrderPhotoView>;

/** A refund as the customer sees it: how much went back, and when. */
const RefundSeen = z.object({ amount: z.int().describe('Integer US cents'), at: z.iso.datetime() });

/** An order's money (decisions.md "Payments and refunds", third round): always present. */
export const PaymentView = z
  .object({
    state: z.enum(paymentStates).describe('unpaid; processing (a payment that completes later, a bank debit: no new payment is offered); paid; partially_refunded; refunded'),
    paid: z.int().describe('Cents received for the order'),
    refunded: z.int().describe('Cents given back (refunds, and disputes lost)'),
    disputed: z.boolean().describe('A payment dispute (chargeback) is open: production waits until it closes'),
    online: z.boolean().describe('The order can be paid online now (POST /orders/{code}/checkout); false once paid, while processing, or when cancelled'),
    instructions: z
      .string()
      .nullable()
      .describe("While the order is pending and unpaid: the studio's note on paying, beside the bank account or, with neither that nor online payment, how to pay"),
    bankTransfer: z
      .object({ accountHolder: z.string(), iban: z.string().describe('Electronic form, no spaces'), bic: z.string().nullable(), bankName: z.string().nullable() })
      .nullable()
      .describe(
        "While the order is pending and unpaid, when the studio takes bank transfers: the account to pay into, with the order's code (its basket's, in a basket) as the reference",
      )
      .meta({ id: 'BankTransfer' }),
    payBy: z.iso.date().nullable().describe('While the order is pending and unpaid: the last day to pay it (YYYY-MM-DD, UTC); the shop cancels it unpaid after that'),
    refunds: z.array(RefundSeen).describe('What was refunded and when, oldest first'),
  })
  .meta({ id: 'Payment' });
export type PaymentView = z.output<typeof PaymentView>;

export const OrderEventView = z.object({
  status: z.enum(orderStatuses),
  note: z.string().nullable(),
  at: z.iso.datetime(),
  photo: OrderPhotoView.nullable().describe('The photo this event added'),
  sketchStatus: z.enum(sketchStatuses).nullable().describe('The sketch status this event set (a decision), or null'),
  actor: z
    .enum(eventActors)
    .describe('Who recorded it: the customer (their own sketch decision), staff (the studio, a decision given by phone included), the payment provider, or the shop'),
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
    carrier: z.enum(carriers).nullable().describe('Who carries the parcel, when the studio said so'),
    trackingUrl: z.url().nullable().describe("The carrier's page for the tracking number, when both are known"),
    sketchStatus: z.enum(sketchStatuses).nullable(),
    checkout: z.string().nullable().describe('The code of the basket the order was placed and paid in (GET /checkouts/{code}), or null'),
    orientation: z.enum(orientations),
    fit: z.enum(fits).nullable().describe('Reproductions only'),
    style: z.enum(styles).nullable().describe('Custom paintings only'),
    subjects: z.int().nullable().describe('Custom paintings only'),
    notes: z.string().nullable(),
    showcaseConsent: z.boolean().describe('The customer allows the studio to show the finished painting (POST /orders/{code}/showcase-consent changes it)'),
    delivery: z
      .object({ name: z.string(), street: z.string(), postalCode: z.string(), city: z.string(), country: z.string() })
      .describe('Where it goes, in full: the lookup already proves the e-mail, and the customer must be able to check the address they typed'),
    estimatedDelivery: DeliveryWindowView.nullable().describe('When it should arrive, from where the order is now (null once delivered or cancelled)'),
    payment: PaymentView,
    photos: z.array(OrderPhotoView).describe("The order's photos, oldest first: the customer's own, then the studio's"),
    events: z.array(OrderEventView).describe('Order history, oldest first'),
  })
  .meta({ id: 'OrderView' });
export type OrderView = z.output<typeof OrderView>;

export const OrderLookup = z.object({
  code: z.string().min(1).max(20),
  email: z.string().min(1).max(200),
});
export type OrderLookup = z.output<typeof OrderLookup>;

/** Paying a pending order later (`POST /v1/orders/{code}/checkout`). */
export const PayLater = z.object({ email: z.string().min(1).max(200).describe('The e-mail address the order was placed with') }).meta({ id: 'PayLater' });
export const CheckoutOpened = z.object({ checkoutUrl: z.string().describe('Where the customer pays (a fresh Stripe Checkout session)') }).meta({ id: 'CheckoutOpened' });

/** The customer allows showing the finished painting, or takes it back (`POST /v1/orders/{code}/showcase-consent`). */
export const ShowcaseConsentChange = z
  .object({
    email: z.string().min(1).max(200).describe('The e-mail address the order was placed with'),
    consent: z.boolean().describe('true: the studio may show the finished painting in its gallery (never the photo sent, never a name); false: it may not'),
  })
  .meta({ id: 'ShowcaseConsentChange' });
export type ShowcaseConsentChange = z.output<typeof ShowcaseConsentChange>;

/** The customer's answer to a sketch (`POST /v1/orders/{code}/sketch-decision`). */
export const SketchDecision = z
  .object({
    email: z.string().min(1).max(200).describe('The e-mail address the order was placed with'),
    decision: z.enum(sketchDecisions),
    comment: z.string().trim().max(2000).optional().describe('What to change, or a word for the painter'),
  })
  .meta({ id: 'SketchDecision' });
export type SketchDecision = z.output<typeof SketchDecision>;

export const PriceTable = z
  .object({
    currency: z.literal('usd'),
    reproduction: z.record(z.enum(sizes), z.record(z.enum(frames), z.int())).describe('Total in cents by size, then frame'),
    custom: z.object({
      multiplier: z.number().describe('A custom painting costs the reproduction price of its size and frame times this'),
      extraSubjectCents: z.int().describe('Added for every subject beyond the first'),
    }),
    shippingIncluded: z.literal(true).describe('Every total includes tracked, insured shipping'),
    delivery: z
      .object({
        paintingDays: z.record(z.enum(sizes), z.int()).describe('Working days at the easel, by size'),
        sketchDays: z.int().describe('Custom paintings: working days for the sketch and its approval'),
        dryingDays: z.record(z.enum(sizes), z.int()).describe('Calendar days of drying and varnish, by size'),
        shippingDays: z.object({ min: z.int(), max: z.int() }).describe('Working days from the studio to the door'),
      })
      .describe('How long a painting takes; working days are Monday to Friday'),
  })
  .meta({ id: 'PriceTable' });

// ───────────── Staff (decisions.md "Staff endpoints", "Orders") ─────────────

/** A refund as staff see it: with how it was made and the studio's note. */
export const RefundView = z
  .object({
    id: z.uuid(),
    amount: z.int().describe('Integer US cents'),
    method: z.enum(refundMethods).describe("stripe: through Stripe's Refunds API (or made in Stripe's dashboard); manual: recorded, the studio pays it back itself"),
    note: z.string().nullable(),
    at: z.iso.datetime(),
  })
  .meta({ id: 'Refund' });
export type RefundView = z.output<typeof RefundView>;

/** An order's money as staff see it: the customer's view, and what needs the studio's eye. */
export const StaffPaymentView = z
  .object({
    state: z.enum(paymentStates),
    paid: z.int(),
    refunded: z.int(),
    disputed: z.boolean(),
    processing: z.boolean().describe('A payment is on its way (a bank debit)'),
    doublePayments: z.int().describe('Payments that arrived for this order when it was paid already or cancelled, each refunded in full at once'),
    paidThroughStripe: z.boolean().describe("The order was paid through Stripe: a refund goes back through Stripe's Refunds API (otherwise it is recorded as manual)"),
    refunds: z.array(RefundView),
  })
  .meta({ id: 'StaffPayment' });

/** The body of a refund by the studio (`POST /v1/admin/orders/{code}/refunds`). */
export const RefundRequest = z
  .object({
    amount: z.int().min(1).max(100_000_000).optional().describe('Integer US cents; by default all that is left to refund'),
    note: z.string().trim().max(2000).optional().describe("Why: shown on the order's timeline beside the amount"),
  })
  .meta({ id: 'RefundRequest' });
export type RefundRequest = z.output<typeof RefundRequest>;

/** `Idempotency-Key`: the same key on the same order answers the first refund again and moves no money. */
export const IdempotencyHeaders = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().describe('The same key again on the same order answers the first refund and moves no money'),
});

export const STAFF_PAGE_SIZE = 48;

export const StaffOrderQuery = z.object({
  status: z.enum(orderStatuses).optional().describe('Only orders in this status'),
  page: z.coerce.number<string | number>().int().min(1).max(1_000_000).default(1).describe('Pages count from 1; past the end, items is empty'),
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
    carrier: z
      .enum(carriers)
      .nullish()
      .describe('Who carries the parcel: only with status shipped or delivered, and with a tracking number (this one or the stored one); null: a carrier not on the list'),
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
    orientation: z.enum(orientations),
    fit: z.enum(fits).nullable(),
    showcaseConsent: z.boolean(),
    frame: z.enum(frames),
    notes: z.string().nullable(),
    total: z.int().describe('Integer US cents'),
    trackingNumber: z.string().nullable(),
    carrier: z.enum(carriers).nullable(),
    sketchStatus: z.enum(sketchStatuses).nullable(),
    customerAnswered: z.boolean().describe('The customer decided on the latest sketch and the studio has not acted on it yet'),
    payment: StaffPaymentView,
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

export const StaffOrderPage = z.object({ items: z.array(StaffOrder), total: z.int(), page: z.int(), pageSize: z.int() }).meta({ id: 'StaffOrderPage' });

/** A photo as staff see it: with whether (since when) it is in the public gallery. */
export const StaffOrderPhotoView = OrderPhotoView.extend({
  showcasedAt: z.iso.datetime().nullable().describe('When it was put in the public gallery (POST /admin/orders/{code}/photos/{id}/showcase); null when it is not shown'),
}).meta({ id: 'StaffOrderPhoto' });
export type StaffOrderPhotoView = z.output<typeof StaffOrderPhotoView>;

export const StaffOrderDetail = StaffOrder.extend({
  photos: z.array(StaffOrderPhotoView).describe('Oldest first; url is the staff address (GET /admin/uploads/{id})'),
  events: z.array(OrderEventView).describe('Oldest first'),
}).meta({ id: 'StaffOrderDetail' });
export type StaffOrderDetail = z.output<typeof StaffOrderDetail>;
