import { orderEmailKey } from '@/components/order';

/**
 * The e-mail a shopper gave for an order, kept for this browser tab (sessionStorage) by the order
 * form and the lookup, so the order page can show the order without asking again. Never put in
 * the address: links get shared, e-mails should not.
 */
export function rememberedEmail(code: string): string | null {
  try {
    return sessionStorage.getItem(orderEmailKey(code));
  } catch {
    return null;
  }
}

export function rememberEmail(code: string, email: string): void {
  try {
    sessionStorage.setItem(orderEmailKey(code), email.trim());
  } catch {
    // Storage refused (private mode, quota): the page asks again next time.
  }
}

export function forgetEmail(code: string): void {
  try {
    sessionStorage.removeItem(orderEmailKey(code));
  } catch {
    // Nothing kept, nothing to forget.
  }
}
