/**
 * An order code as typed → the code it means, folded the way the server's lookup folds it
 * (src/server/orders/code.ts: any case, Crockford's look-alikes O → 0, I/L → 1). That module uses
 * node:crypto, so the browser keeps this short copy; the server still does its own folding. Spaces
 * and hyphens are dropped too: a code copied from paper is often typed in groups (`7HK2 M9QX 0A`).
 */
export function foldOrderCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** The steps an order goes through, in order; `cancelled` is a way out, not a step. */
export const orderSteps = ['pending', 'paid', 'sketching', 'painting', 'drying', 'shipped', 'delivered'] as const;
