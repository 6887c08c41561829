import { normalizeOrderCode } from '@/shared/orders';

/**
 * An order code as typed → the code it means, folded as the server's lookup folds it
 * (`normalizeOrderCode`: any case, Crockford's look-alikes O → 0, I/L → 1). Spaces and hyphens
 * are dropped too: a code copied from paper is often typed in groups (`7HK2 M9QX 0A`).
 */
export function foldOrderCode(typed: string): string {
  return normalizeOrderCode(typed.replace(/[\s-]/g, ''));
}
