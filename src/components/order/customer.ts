import type { z } from 'zod';
import { Customer } from '@/shared/order-schema';
import { splitPrefecture } from './prefectures';

/**
 * The customer part of an order form, checked with the server's own `Customer` schema
 * (src/shared/order-schema.ts, browser-safe), so the form refuses exactly what the server would.
 */
export const customerFields = ['name', 'email', 'phone', 'address', 'city', 'postalCode', 'country'] as const;
export type CustomerField = (typeof customerFields)[number];

/** What the shopper has typed so far: every field a string, as inputs hold them. */
export type CustomerDraft = Record<CustomerField, string>;
export type CustomerInput = z.input<typeof Customer>;

export const emptyCustomer: CustomerDraft = { name: '', email: '', phone: '', address: '', city: '', postalCode: '', country: '' };

/**
 * One field's problem in words the messages know (`OrderForm.errors.<key>`), with the numbers the
 * message needs. Keys are per field where a field deserves its own sentence.
 */
export interface FieldProblem {
  key: 'required' | 'nameShort' | 'addressShort' | 'email' | 'country' | 'tooLong' | 'invalid';
  values?: { max: number };
}
export type CustomerProblems = Partial<Record<CustomerField, FieldProblem>>;

/** The body's `customer`: the optional phone is left out when empty (the server stores none). */
export function customerInput(draft: CustomerDraft): CustomerInput {
  const phone = draft.phone.trim();
  return {
    name: draft.name,
    email: draft.email.trim(),
    ...(phone ? { phone } : {}),
    address: draft.address,
    city: draft.city,
    postalCode: draft.postalCode,
    country: draft.country,
  };
}

interface Issue {
  code: string;
  path: PropertyKey[];
  maximum?: number | bigint;
}

function problemOf(field: CustomerField, issue: Issue, draft: CustomerDraft): FieldProblem {
  const empty = draft[field].trim() === '';
  if (issue.code === 'too_big') return { key: 'tooLong', values: { max: Number(issue.maximum ?? 0) } };
  if (field === 'email') return empty ? { key: 'required' } : { key: 'email' };
  if (field === 'country') return { key: 'country' };
  if (empty) return { key: 'required' };
  if (issue.code === 'too_small' && field === 'name') return { key: 'nameShort' };
  if (issue.code === 'too_small' && field === 'address') return { key: 'addressShort' };
  if (issue.code === 'too_small') return { key: 'required' };
  return { key: 'invalid' };
}

/** Every field's first problem (none: the customer is valid as the server will see it). */
export function customerProblems(draft: CustomerDraft): CustomerProblems {
  const parsed = Customer.safeParse(customerInput(draft));
  const problems: CustomerProblems = {};
  // A Japanese address keeps its prefecture at the start of `city`: a prefecture alone names no city.
  if (draft.country === 'JP' && splitPrefecture(draft.city).rest.trim() === '') problems.city = { key: 'required' };
  if (parsed.success) return problems;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || !(customerFields as readonly string[]).includes(field)) continue;
    const name = field as CustomerField;
    problems[name] ??= problemOf(name, issue as Issue, draft);
  }
  return problems;
}

/**
 * A server answer's field path (`customer.email`, as /v1 and the tRPC error name them) → the form
 * field, when it is one of the customer's.
 */
export function customerFieldOf(path: string): CustomerField | null {
  const [head, field] = path.split('.');
  if (head !== 'customer' || !field) return null;
  return (customerFields as readonly string[]).includes(field) ? (field as CustomerField) : null;
}
