import { randomBytes } from 'node:crypto';

/** Crockford's base32: no I, L, O or U, so a code read aloud or typed from paper survives. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ORDER_CODE_LENGTH = 10;

/** A fresh order code from the CSPRNG: 50 bits, unguessable enough that lookup needs no account. */
export function newOrderCode(): string {
  // 256 is a multiple of 32, so masking each byte keeps every symbol equally likely.
  return Array.from(randomBytes(ORDER_CODE_LENGTH), (byte) => ALPHABET[byte & 31]).join('');
}

/** What a customer typed, as the code it means: any letter case, and the look-alikes Crockford folds. */
export function normalizeOrderCode(typed: string): string {
  return typed.trim().toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}
