import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { limitPolicies, partnerPolicy } from '@/server/limits/policy';
import { isPartnerKeyShaped, newPartnerKey, PARTNER_KEY_PREFIX, partnerKeyHash, partnerKeyIn } from '@/server/partners/keys';

describe('making a partner key', () => {
  test('is pk_live_ and 256 random bits in base64url; stored as its SHA-256, listed by its first 12 characters', () => {
    const made = newPartnerKey();
    expect(made.key).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(made.key.slice(PARTNER_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(made.hash).toBe(createHash('sha256').update(made.key).digest('hex'));
    expect(made.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(made.prefix).toBe(made.key.slice(0, 12));
    expect(isPartnerKeyShaped(made.key)).toBe(true);
  });

  test('never makes the same key twice; the listed start keeps 39 of its 43 random characters back', () => {
    const keys = Array.from({ length: 200 }, () => newPartnerKey());
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
    expect(new Set(keys.map((k) => k.hash)).size).toBe(200);
    for (const { key, prefix } of keys) expect(key.slice(prefix.length)).toHaveLength(39);
  });

  test('hashing is the same every time and differs for a key one character off', () => {
    const { key } = newPartnerKey();
    expect(partnerKeyHash(key)).toBe(partnerKeyHash(key));
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    expect(partnerKeyHash(key.slice(0, -1) + last)).not.toBe(partnerKeyHash(key));
  });
});

describe('reading a key from Authorization', () => {
  const { key } = newPartnerKey();

  test('takes Bearer pk_live_… (any case of the scheme, spaces around), and nothing else', () => {
    expect(partnerKeyIn(`Bearer ${key}`)).toBe(key);
    expect(partnerKeyIn(`bearer   ${key}  `)).toBe(key);
    // A key with a mistake in it is still a partner key (an unknown one), not a staff token.
    expect(partnerKeyIn('Bearer pk_live_short')).toBe('pk_live_short');
    expect(partnerKeyIn('Bearer test-staff-token-5c1f0e')).toBeNull();
    expect(partnerKeyIn(key)).toBeNull();
    expect(partnerKeyIn(`Basic ${key}`)).toBeNull();
    expect(isPartnerKeyShaped('pk_live_short')).toBe(false);
    expect(isPartnerKeyShaped(`${key}x`)).toBe(false);
  });
});

describe("a partner's allowances", () => {
  const key = { ordersPerHour: 500, uploadsPerHour: 40 };

  test("orders and uploads are the key's, per hour; refusals for input are given back as for an address", () => {
    expect(partnerPolicy('orderCreate', key)).toEqual({ allowance: 500, windowSeconds: 3600, onlyAccepted: true });
    expect(partnerPolicy('photoUpload', key)).toEqual({ allowance: 40, windowSeconds: 3600, onlyAccepted: true, ipv6Prefix: 48 });
  });

  test('lookups follow the orders (never below an address), anything else keeps the shipped allowance', () => {
    expect(partnerPolicy('orderLookup', key)).toEqual({ ...limitPolicies.orderLookup, allowance: 500 });
    expect(partnerPolicy('orderLookup', { ordersPerHour: 5, uploadsPerHour: 5 }).allowance).toBe(limitPolicies.orderLookup.allowance);
    expect(partnerPolicy('signIn', key)).toEqual(limitPolicies.signIn);
  });
});
