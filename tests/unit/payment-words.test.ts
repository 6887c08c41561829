import { describe, expect, test } from 'vitest';
import { transferLines } from '@/components/order-status/transfer-details';
import { ibanInGroups, paymentModeOf, unpaidPayBy } from '@/shared/payment';

const bank = { accountHolder: 'Atelier Prints GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bankName: 'Commerzbank' };

describe('what the shop says about paying, as configured', () => {
  test('card, transfer, both, the studio’s words, or its e-mail', () => {
    expect(paymentModeOf({ online: true, bankTransfer: null, instructions: null })).toBe('online');
    expect(paymentModeOf({ online: true, bankTransfer: bank, instructions: null })).toBe('both');
    expect(paymentModeOf({ online: false, bankTransfer: bank, instructions: 'Charges are yours.' })).toBe('transfer');
    expect(paymentModeOf({ online: false, bankTransfer: null, instructions: 'Pay at the studio.' })).toBe('instructions');
    expect(paymentModeOf({ online: false, bankTransfer: null, instructions: null })).toBe('email');
  });

  test('the bank details: every line a transfer form asks, shown as banks print it and copied as forms take it', () => {
    expect(ibanInGroups('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(transferLines(bank, 38_700, '7HK2M9QX0A', 'de')).toEqual([
      { field: 'accountHolder', shown: 'Atelier Prints GmbH', copied: 'Atelier Prints GmbH' },
      { field: 'iban', shown: 'DE89 3704 0044 0532 0130 00', copied: 'DE89370400440532013000' },
      { field: 'bic', shown: 'COBADEFFXXX', copied: 'COBADEFFXXX' },
      { field: 'bankName', shown: 'Commerzbank', copied: 'Commerzbank' },
      { field: 'amount', shown: expect.stringMatching(/^387\s\$$/), copied: '387.00' },
      { field: 'reference', shown: '7HK2M9QX0A', copied: '7HK2M9QX0A' },
    ]);
    // BIC and bank name are optional; the amount reads as each language writes it.
    const lines = transferLines({ ...bank, bic: null, bankName: null }, 12_950, 'B4SKET0001', 'ja');
    expect(lines.map((line) => line.field)).toEqual(['accountHolder', 'iban', 'amount', 'reference']);
    expect(lines[2]).toEqual({ field: 'amount', shown: '$129.50', copied: '129.50' });
  });

  test('the last day to pay: 14 days after the order, or the whole gap after a reminder that went out late', () => {
    const days = { remindDays: 7, cancelDays: 14 };
    const createdAt = new Date('2026-12-01T10:00:00Z');
    expect(unpaidPayBy({ createdAt, remindedAt: null }, days).toISOString()).toBe('2026-12-15T10:00:00.000Z');
    expect(unpaidPayBy({ createdAt, remindedAt: new Date('2026-12-08T11:00:00Z') }, days).toISOString()).toBe('2026-12-15T11:00:00.000Z');
    // Reminded ten days late (the job was down): seven days from the reminder.
    expect(unpaidPayBy({ createdAt, remindedAt: new Date('2026-12-18T09:00:00Z') }, days).toISOString()).toBe('2026-12-25T09:00:00.000Z');
  });
});
