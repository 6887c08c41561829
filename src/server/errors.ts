import 'server-only';
/**
 * Errors the domain raises, in the words of the /v1 error contract (decisions.md). Services throw
 * them knowing nothing of HTTP; the tRPC layer and the REST wrapper turn them into statuses.
 */
export const errorStatus = {
  invalid_input: 400,
  invalid_signature: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  invalid_transition: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  /** Second round: paying later, with no payment provider configured (decisions.md "Paying later"). */
  payment_unavailable: 409,
  /** Third round (decisions.md "Payments and refunds"): a payment is on its way; no new one is offered. */
  payment_in_progress: 409,
  /** A refund of an order with nothing paid, or all of it refunded already. */
  nothing_to_refund: 409,
  /** A refund of more than is left to refund. */
  refund_too_large: 409,
  /** Ours: Stripe refused the refund (the charge is disputed, say); its reason is in the message. */
  refund_refused: 409,
  /** A dispute (chargeback) is open: the order cannot move forward until it closes. */
  order_disputed: 409,
  /** Ours, beyond the contract's table: the shop cannot serve right now (health check failing). */
  unavailable: 503,
  /**
   * Third round (decisions.md "Storage"): a customer upload refused because the photos the shop holds
   * for nobody yet (uploads no order uses, unpaid orders' photos) are past UPLOAD_QUOTA_MB. 503, not
   * 507: the client did nothing wrong and may try later (Retry-After); it stores nothing and counts
   * against no allowance.
   */
  storage_full: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldProblem {
  path: string;
  message: string;
}

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldProblem[],
  ) {
    super(message);
  }
}

export const invalidInput = (message: string, details?: FieldProblem[]) => new DomainError('invalid_input', message, details);
export const notFound = (message: string) => new DomainError('not_found', message);
/** A change the order's state does not allow (409): a status it cannot move to, a sketch decided already. */
export const invalidTransition = (message: string) => new DomainError('invalid_transition', message);

/** Over a per-client limit (src/server/limits/): 429 with `Retry-After: retryAfterSeconds`. */
export class RateLimited extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = `Too many requests; try again in ${retryAfterSeconds} seconds.`,
  ) {
    super('rate_limited', message);
  }
}

/** Photo storage past its quota (src/server/uploads/quota.ts): 503 with `Retry-After: retryAfterSeconds`. */
export class StorageFull extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('storage_full', message);
  }
}
