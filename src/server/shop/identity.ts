import 'server-only';
import type { Env } from '@/server/env';

/**
 * Who runs the shop, as its pages (footer, contact, terms, privacy, imprint) and later its e-mails
 * name it. Read from the SHOP_* settings, which `src/server/env.ts` checks at start. With none set
 * the shop is a demonstration: every value is an obvious example (an `.example` domain, a 555
 * telephone number, a made-up street) and `demo` is true, so the footer can say so.
 */
export interface ShopIdentity {
  /** The name the shop trades under (footer, page texts). */
  name: string;
  /** The person or company that sells (terms, imprint, privacy). */
  legalName: string;
  /** Postal address, one entry per line. */
  address: string[];
  /** The studio's e-mail address (SHOP_EMAIL): contact page, imprint, messages for the studio. */
  email: string;
  phone: string | null;
  vatId: string | null;
  /** Who answers for the shop in the imprint. */
  responsible: string;
  /** Days an order's photos are kept after delivery or cancellation. */
  photoRetentionDays: number;
  /** Days after which an unpaid order is reminded, and cancelled (the unpaid-orders job uses the same settings). */
  unpaidRemindDays: number;
  unpaidCancelDays: number;
  /** True when the operator has not configured an identity: the values are examples. */
  demo: boolean;
}

export const demoIdentity = {
  name: 'Atelier Prints',
  legalName: 'Atelier Prints Example Studio',
  address: ['12 Canvas Lane', 'Example Town 00000', 'Exampleland'],
  phone: '+1 555 0100',
  vatId: 'XX000000000',
  responsible: 'Alex Example',
} as const;

type IdentityEnv = Pick<
  Env,
  | 'SHOP_NAME'
  | 'SHOP_LEGAL_NAME'
  | 'SHOP_ADDRESS'
  | 'SHOP_EMAIL'
  | 'SHOP_PHONE'
  | 'SHOP_VAT_ID'
  | 'SHOP_RESPONSIBLE'
  | 'PHOTO_RETENTION_DAYS'
  | 'UNPAID_REMIND_DAYS'
  | 'UNPAID_CANCEL_DAYS'
>;

/** The shop's identity from validated settings (`env()`); pure, so tests hand in any configuration. */
export function shopIdentity(e: IdentityEnv): ShopIdentity {
  // env.ts accepts SHOP_LEGAL_NAME and SHOP_ADDRESS only together, so either both are the operator's or neither.
  const demo = !e.SHOP_LEGAL_NAME || !e.SHOP_ADDRESS;
  if (demo) {
    return {
      name: e.SHOP_NAME ?? demoIdentity.name,
      legalName: demoIdentity.legalName,
      address: [...demoIdentity.address],
      email: e.SHOP_EMAIL,
      phone: e.SHOP_PHONE ?? demoIdentity.phone,
      vatId: e.SHOP_VAT_ID ?? demoIdentity.vatId,
      responsible: e.SHOP_RESPONSIBLE ?? demoIdentity.responsible,
      photoRetentionDays: e.PHOTO_RETENTION_DAYS,
      unpaidRemindDays: e.UNPAID_REMIND_DAYS,
      unpaidCancelDays: e.UNPAID_CANCEL_DAYS,
      demo: true,
    };
  }
  return {
    // The brand the header and page titles show, unless the operator trades under another name.
    name: e.SHOP_NAME ?? demoIdentity.name,
    legalName: e.SHOP_LEGAL_NAME!,
    address: [...e.SHOP_ADDRESS!],
    email: e.SHOP_EMAIL,
    phone: e.SHOP_PHONE ?? null,
    vatId: e.SHOP_VAT_ID ?? null,
    responsible: e.SHOP_RESPONSIBLE ?? e.SHOP_LEGAL_NAME!,
    photoRetentionDays: e.PHOTO_RETENTION_DAYS,
    unpaidRemindDays: e.UNPAID_REMIND_DAYS,
    unpaidCancelDays: e.UNPAID_CANCEL_DAYS,
    demo: false,
  };
}

/** A telephone number as a `tel:` address (digits and a leading plus only). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;
