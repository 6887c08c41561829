import 'server-only';
/**
 * Every per-client abuse limit of the shop, in one place (docs/security.md explains each).
 * A client is an address (src/server/http/client.ts); each allowance is multiplied by
 * RATE_LIMIT_MULTIPLIER, and 0 turns limiting off, except the staff-token lockout, which holds
 * whatever the multiplier says.
 *
 * The allowances are sized for a household or an office behind one address: several times what a
 * real customer does in the window, and hopeless for guessing (an order code has 50 random bits and
 * needs the e-mail too; ADMIN_TOKEN is a long random secret).
 */
export const limitPolicies = {
  /**
   * Orders placed. A customer places one or two; a shared office address a handful. Only accepted
   * orders count (decisions.md "Limits and inputs"): a form refused with 400 is given back.
   */
  orderCreate: { allowance: 20, windowSeconds: 60 * 60, onlyAccepted: true },
  /**
   * Photos uploaded for custom paintings (up to 20 MB each): a few tries per order. Only stored
   * photos count. An IPv6 client counts by its /48 (issue 38): 30 × 20 MB per /64 would let one
   * /48 (65,536 of them) fill any disk within the hour.
   */
  photoUpload: { allowance: 30, windowSeconds: 60 * 60, onlyAccepted: true, ipv6Prefix: 48 },
  /** Order lookups by code and e-mail: the order page and its reloads; guessing needs billions. */
  orderLookup: { allowance: 60, windowSeconds: 10 * 60 },
  /**
   * Artwork images (/images) that cost the shop a Commons fetch or a catalog lookup: a thumbnail
   * not yet on disk, or a name that is no catalog image. Kept thumbnails are never counted. A page
   * of 48 works new to the cache is 48 misses; a visitor browsing many such pages stays well under.
   */
  imageMiss: { allowance: 600, windowSeconds: 10 * 60 },
  /** Google sign-in steps (NextAuth's sign-in POST and callback, /v1/account/auth/google). */
  signIn: { allowance: 30, windowSeconds: 10 * 60 },
  /**
   * Wrong staff tokens (the dashboard's sign-in form and Bearer tokens on /v1 staff endpoints
   * alike). Only failures count; once over, even the right token waits, so the answer cannot tell
   * an attacker that a guess was right. A lockout: RATE_LIMIT_MULTIPLIER neither scales nor
   * turns it off (a load test or a private instance must not open ADMIN_TOKEN to guessing).
   */
  staffToken: { allowance: 10, windowSeconds: 15 * 60, lockout: true },
} as const satisfies Record<string, LimitPolicy>;

/**
 * A partner key's own allowances (decisions.md "Limits and inputs"): a partner's requests count
 * against its key, never against the address its server calls from, with the allowances staff set
 * on the key for orders and uploads (per hour, exact: RATE_LIMIT_MULTIPLIER does not scale them,
 * though 0 still turns limiting off). Order lookups follow the orders: every ten minutes a partner
 * may look up as many orders as it may place in an hour (at least what an address may). Anything
 * else keeps the shipped allowance, counted for the key.
 */
export function partnerPolicy(name: LimitName, key: { ordersPerHour: number; uploadsPerHour: number }): LimitPolicy {
  const policy: LimitPolicy = limitPolicies[name];
  switch (name) {
    case 'orderCreate':
      return { ...policy, allowance: key.ordersPerHour, windowSeconds: 60 * 60 };
    case 'photoUpload':
      return { ...policy, allowance: key.uploadsPerHour, windowSeconds: 60 * 60 };
    case 'orderLookup':
      return { ...policy, allowance: Math.max(policy.allowance, key.ordersPerHour) };
    default:
      return policy;
  }
}

export interface LimitPolicy {
  /** Requests a client may make per window, before the multiplier. */
  allowance: number;
  windowSeconds: number;
  /**
   * Count only requests that were accepted: a request refused for its input (400, 413, 415) gives
   * its count back. It is still counted first, so simultaneous requests can never pass the allowance.
   */
  onlyAccepted?: boolean;
  /**
   * A lockout against guessing a secret: the allowance is exact, RATE_LIMIT_MULTIPLIER neither
   * scales it nor turns it off. Only STAFF_LOCKOUT_OFF does (the test suite; refused in production).
   */
  lockout?: boolean;
  /** The IPv6 prefix a client address is counted by (limitKey): 64 unless the limit says 48. */
  ipv6Prefix?: 48 | 64;
}

export type LimitName = keyof typeof limitPolicies;
