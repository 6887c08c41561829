import 'server-only';
import { randomBytes } from 'node:crypto';

/**
 * Crockford's base32: no I, L, O or U, so a code read aloud or typed from paper survives (what a
 * customer types is folded back by `normalizeOrderCode`, src/shared/orders.ts).
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ORDER_CODE_LENGTH = 10;

/** A fresh order code from the CSPRNG: 50 bits, unguessable enough that lookup needs no account. */
export function newOrderCode(): string {
  // 256 is a multiple of 32, so masking each byte keeps every symbol equally likely.
  return Array.from(randomBytes(ORDER_CODE_LENGTH), (byte) => ALPHABET[byte & 31]).join('');
}
