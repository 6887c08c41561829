import 'server-only';
import { createHash, randomBytes } from 'node:crypto';

/**
 * Partner keys as text: what a key looks like, how it is made, and the only form of it the shop
 * keeps. A key is `pk_live_` and 43 characters of base64url (32 random bytes, 256 bits): the prefix
 * lets a person, a log scrubber or a secret scanner recognize one, and the random part is far
 * beyond guessing, so a plain SHA-256 is enough to store it (a slow password hash protects short
 * human secrets; it would only cost time on every request here).
 */
export const PARTNER_KEY_PREFIX = 'pk_live_';
const RANDOM_BYTES = 32;
/** How much of a key staff see in the list: the prefix and 4 random characters (24 bits, no help to a guesser). */
const SHOWN_CHARACTERS = PARTNER_KEY_PREFIX.length + 4;

const keyPattern = /^pk_live_[A-Za-z0-9_-]{43}$/;

export interface NewPartnerKey {
  /** The key itself: shown once to staff, never stored. */
  key: string;
  /** SHA-256 (hex) of the key: what the database keeps and looks keys up by. */
  hash: string;
  /** The start of the key staff see in the list. */
  prefix: string;
}

/** A fresh key from the system's CSPRNG, with its stored forms. */
export function newPartnerKey(): NewPartnerKey {
  const key = `${PARTNER_KEY_PREFIX}${randomBytes(RANDOM_BYTES).toString('base64url')}`;
  return { key, hash: partnerKeyHash(key), prefix: key.slice(0, SHOWN_CHARACTERS) };
}

/** The stored form of a key. */
export function partnerKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a value has the shape of a partner key (the prefix and 43 base64url characters). */
export function isPartnerKeyShaped(value: string): boolean {
  return keyPattern.test(value);
}

/**
 * The partner key an `Authorization` header names, when it is `Bearer pk_live_…`; null for any
 * other credential (the staff token). A value with the prefix but the wrong shape is still
 * answered as a partner key (an unknown one): it is a partner's mistake, not a staff token.
 */
export function partnerKeyIn(authorization: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  const value = match?.[1];
  return value?.startsWith(PARTNER_KEY_PREFIX) ? value : null;
}
