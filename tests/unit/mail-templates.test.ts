import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { renderOrderMail, type MailOrder, type OrderMailKind } from '@/server/orders/mail';
import { catalogLocales } from '@/shared/locales';
import { paying } from '../support/payment';

const kinds: OrderMailKind[] = ['received', 'paid', 'shipped', 'delivered', 'sketch'];
/** Mails are written in every catalog language (`vi` reads English). */
const languages = catalogLocales;

const order = (overrides: Partial<MailOrder> = {}): MailOrder => ({
  code: '7HK2M9QX0A',
  locale: 'en',
  kind: 'reproduction',
  artworkTitle: 'The Starry Night',
  style: null,
  subjects: null,
  size: '50x70',
  orientation: 'portrait',
  frame: 'framed',
  totalCents: 34800,
  customerName: 'Ada <Lovelace> & Co',
  customerEmail: 'ada@example.com',
  trackingNumber: '1Z999AA10123456784',
  ...overrides,
});

const keysOf = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => keysOf(v, `${prefix}${k}.`)) : [prefix.slice(0, -1)];

describe('order e-mail templates', () => {
  test('live beside the website strings, one file per mail language, each with every string English has', () => {
    const folder = new URL('../../messages/mail/', import.meta.url);
    expect(readdirSync(folder).sort()).toEqual(languages.map((language) => `${language}.json`).sort());
    const english = keysOf(JSON.parse(readFileSync(new URL('en.json', folder), 'utf8'))).sort();
    for (const language of languages) {
      const strings = JSON.parse(readFileSync(new URL(`${language}.json`, folder), 'utf8'));
      expect(keysOf(strings).sort(), language).toEqual(english);
      for (const key of english) {
        const value = key.split('.').reduce((v: any, k) => v[k], strings);
        expect(typeof value === 'string' && value.trim().length > 0, `${language}: ${key}`).toBe(true);
      }
    }
  });

  test('a refund says how much went back; a reminder, the day the order is cancelled unless paid, and how to pay', () => {
    const refund = renderOrderMail('refunded', order({ locale: 'de', refundedCents: 5000 }), 'https://x');
    expect(refund.subject).toBe('Erstattung für Bestellung 7HK2M9QX0A');
    expect(refund.text).toMatch(/Erstattet: 50,00\s\$/);
    const reminder = renderOrderMail('reminder', order({ locale: 'ja', payBy: new Date('2026-12-15T10:00:00Z') }), 'https://x', paying({ instructions: 'IBAN DE00 1234' }));
    expect(reminder.subject).toBe('ご注文 7HK2M9QX0A のお支払いをお待ちしています');
    expect(reminder.text).toContain('お支払い期限: 2026年12月15日');
    expect(reminder.text).toContain('IBAN DE00 1234');
    expect(renderOrderMail('unpaidCancelled', order({ locale: 'en' }), 'https://x').subject).toBe('Order 7HK2M9QX0A was cancelled: no payment arrived');
  });

  test.each(languages.flatMap((language) => kinds.map((kind) => [language, kind] as const)))(
    '%s %s: HTML and text name the order code, the item, the total and the lookup link',
    (language, kind) => {
      const mail = renderOrderMail(kind, order({ locale: language }), 'https://shop.example');
      const total = new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' }).format(348);
      const link = `https://shop.example/${language}/orders/7HK2M9QX0A`;
      expect(mail.subject).toContain('7HK2M9QX0A');
      for (const body of [mail.text, mail.html]) {
        expect(body).toContain('7HK2M9QX0A');
        expect(body).toContain('The Starry Night');
        // Width × height as the canvas hangs (portrait here).
        expect(body).toContain('50 × 70 cm');
        expect(body).toContain(total);
        expect(body).toContain(link);
      }
      expect(mail.html).toMatch(/^<!doctype html>/);
      expect(mail.html).toContain(`lang="${language}"`);
    },
  );

  test('each language speaks its own words', () => {
    const subjects = languages.map((language) => renderOrderMail('received', order({ locale: language }), 'https://shop.example').subject);
    expect(new Set(subjects).size).toBe(languages.length);
    expect(renderOrderMail('shipped', order({ locale: 'ja' }), 'https://x').subject).toBe('ご注文 7HK2M9QX0A を発送しました');
    expect(renderOrderMail('paid', order({ locale: 'de' }), 'https://x').text).toContain('Zahlung');
  });

  test('vi (and anything unknown) falls back to English, with the link still on the vi site', () => {
    const vi = renderOrderMail('paid', order({ locale: 'vi' }), 'https://shop.example');
    const en = renderOrderMail('paid', order({ locale: 'en' }), 'https://shop.example');
    expect(vi.subject).toBe(en.subject);
    expect(vi.text).toBe(en.text.replace('/en/orders/', '/vi/orders/'));
  });

  test('shipped and delivered name the tracking number; received and paid do not', () => {
    expect(renderOrderMail('shipped', order(), 'https://x').text).toContain('Tracking number: 1Z999AA10123456784');
    expect(renderOrderMail('delivered', order(), 'https://x').html).toContain('1Z999AA10123456784');
    expect(renderOrderMail('received', order(), 'https://x').text).not.toContain('1Z999AA10123456784');
    expect(renderOrderMail('shipped', order({ trackingNumber: null }), 'https://x').text).not.toContain('Tracking');
  });

  test("with its carrier known, the tracking number names it and links to the carrier's page for that number", () => {
    const shipped = renderOrderMail('shipped', order({ carrier: 'ups' }), 'https://x');
    expect(shipped.text).toContain('Tracking number: 1Z999AA10123456784 (UPS) (https://www.ups.com/track?tracknum=1Z999AA10123456784)');
    expect(shipped.html).toContain('<a href="https://www.ups.com/track?tracknum=1Z999AA10123456784" style="color:#2b2620">1Z999AA10123456784 (UPS)</a>');
    // The carrier in the mail's language; no link without a number to follow.
    expect(renderOrderMail('shipped', order({ locale: 'ja', carrier: 'japan_post' }), 'https://x').text).toContain('1Z999AA10123456784 (日本郵便)');
    expect(renderOrderMail('shipped', order({ carrier: 'ups', trackingNumber: null }), 'https://x').html).not.toContain('ups.com');
  });

  test('a custom painting names its style and subjects in the language of the mail', () => {
    const fr = renderOrderMail('received', order({ locale: 'fr', kind: 'custom', artworkTitle: null, style: 'vangogh', subjects: 3 }), 'https://x');
    expect(fr.text).toContain('Tableau sur mesure');
    expect(fr.text).toContain('Van Gogh');
    expect(fr.text).toContain('3 sujet(s)');
  });

  test('what the customer typed is escaped in the HTML', () => {
    const mail = renderOrderMail('received', order(), 'https://x');
    expect(mail.html).toContain('Ada &lt;Lovelace&gt; &amp; Co');
    expect(mail.html).not.toContain('<Lovelace>');
    expect(mail.text).toContain('Ada <Lovelace> & Co');
  });

  test('the order-received mail says when the painting should arrive, in the language of the mail', () => {
    const window = { earliest: '2026-12-16', latest: '2026-12-22' };
    const en = renderOrderMail('received', order({ estimatedDelivery: window }), 'https://shop.example');
    expect(en.text).toMatch(/Estimated delivery: Dec 16\s*–\s*22, 2026/);
    const de = renderOrderMail('received', order({ locale: 'de', estimatedDelivery: window }), 'https://shop.example');
    expect(de.text).toMatch(/Voraussichtliche Lieferung: 16\.\s*–\s*22\.12\.2026/);
    // Only the mail that confirms the order promises a date.
    expect(renderOrderMail('paid', order({ estimatedDelivery: window }), 'https://shop.example').text).not.toContain('Estimated delivery');
  });

  test('how to pay: the instructions with the amount and the code as reference, the order page when online, else the studio writes', () => {
    const instructions = 'Bank transfer to Atelier Prints\nIBAN DE00 0000 0000 0000 0000 00';
    const byTransfer = renderOrderMail('received', order(), 'https://shop.example', paying({ online: false, instructions }));
    expect(byTransfer.text).toContain(instructions);
    expect(byTransfer.text).toContain('Please transfer $348.00 and use your order code 7HK2M9QX0A as the payment reference.');
    const inGerman = renderOrderMail('received', order({ locale: 'de' }), 'https://shop.example', paying({ online: false, instructions }));
    expect(inGerman.text).toMatch(/Bitte überweisen Sie 348,00\s\$ und geben Sie Ihre Bestellnummer 7HK2M9QX0A als Verwendungszweck an\./);
    expect(byTransfer.html).toContain('IBAN DE00 0000 0000 0000 0000 00');
    const online = renderOrderMail('received', order({ locale: 'ja' }), 'https://shop.example', paying({ online: true, instructions: null }));
    expect(online.text).toContain('ご注文ページからいつでもお支払いいただけます');
    const neither = renderOrderMail('received', order({ locale: 'de' }), 'https://shop.example', paying({ online: false, instructions: null }));
    expect(neither.text).toContain('Das Atelier schreibt Ihnen in Kürze, wie Sie bezahlen können.');
    expect(renderOrderMail('shipped', order(), 'https://shop.example', paying({ online: false, instructions })).text).not.toContain('IBAN');
  });

  test("the studio's bank account, line by line with the reference; beside card payment, as the other way", () => {
    const bankTransfer = { accountHolder: 'Atelier Prints GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bankName: null };
    const transfer = renderOrderMail('received', order({ locale: 'de' }), 'https://shop.example', paying({ bankTransfer, instructions: 'Spesen trägt der Auftraggeber.' }));
    expect(transfer.text).toContain('Bitte überweisen Sie auf dieses Konto:\nKontoinhaber: Atelier Prints GmbH\nIBAN: DE89 3704 0044 0532 0130 00\nBIC: COBADEFFXXX\n');
    expect(transfer.text).toContain('Spesen trägt der Auftraggeber.');
    expect(transfer.text).toMatch(/Bestellnummer 7HK2M9QX0A als Verwendungszweck/);
    expect(transfer.text).not.toContain('Bank:');
    const both = renderOrderMail('received', order(), 'https://shop.example', paying({ online: true, bankTransfer }));
    expect(both.text).toContain('you can pay at any time from your order page');
    expect(both.text).toContain('Or pay by bank transfer to:\nAccount holder: Atelier Prints GmbH\nIBAN: DE89 3704 0044 0532 0130 00');
    expect(both.html).toContain('IBAN: DE89 3704 0044 0532 0130 00');
  });
});
