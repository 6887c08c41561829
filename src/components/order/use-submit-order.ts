'use client';

import { TRPCClientError } from '@trpc/client';
import type { z } from 'zod';
import { useCallback, useState } from 'react';
import { useRouter } from '@/i18n/navigation';
import type { CreateOrder } from '@/shared/order-schema';
import { pagePath } from '@/shared/paths';
import { trpc } from '@/trpc/react';

/** The body of `orders.create` (POST /v1/orders) as the browser sends it. */
export type OrderBody = z.input<typeof CreateOrder>;

/** One field the server refused, by its path in the body (`customer.email`, `artworkSlug`, `uploadId`). */
export interface ServerFieldProblem {
  path: string;
  message: string;
}

export type SubmitOutcome =
  | { ok: true; code: string; total: number; checkoutUrl: string | null }
  | { ok: false; kind: 'invalid'; problems: ServerFieldProblem[] }
  | { ok: false; kind: 'rateLimited' }
  | { ok: false; kind: 'failed' };

/** The key the order page reads to show a new order without asking for the e-mail again. */
export const orderEmailKey = (code: string) => `atelier:order-email:${code.toUpperCase()}`;

/**
 * The field problems of a refused order. The service's own refusals (an unknown artwork, a used
 * photo) carry `details`; a body the procedure's Zod contract refused carries the Zod issues as
 * the error message (tRPC's default), read here as JSON.
 */
export function problemsOf(error: unknown): ServerFieldProblem[] | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { code?: string; details?: ServerFieldProblem[] } | undefined;
  if (data?.code !== 'BAD_REQUEST') return null;
  if (Array.isArray(data.details) && data.details.length) return data.details;
  try {
    const issues = JSON.parse(error.message) as { path?: PropertyKey[]; message?: string }[];
    if (Array.isArray(issues)) return issues.map((i) => ({ path: (i.path ?? []).map(String).join('.'), message: i.message ?? '' }));
  } catch {
    // Not a list of issues: a refusal without field details.
  }
  return [];
}

/** Over the per-address order allowance (429). */
export const isRateLimited = (error: unknown) => error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'TOO_MANY_REQUESTS';

/**
 * Sends an order through `orders.create`, the procedure behind POST /v1/orders. The procedure's
 * input is `jsonBody(CreateOrder)`, which takes the body exactly as /v1 does, so the body goes as
 * the input unchanged. On success the e-mail is kept for the order page (sessionStorage), then the
 * browser goes to Stripe Checkout when the server opened one, else to the order page.
 */
export function useSubmitOrder() {
  const mutation = trpc.orders.create.useMutation();
  const router = useRouter();
  const [navigating, setNavigating] = useState(false);

  const submit = useCallback(
    async (body: OrderBody): Promise<SubmitOutcome> => {
      try {
        const created = await mutation.mutateAsync(body);
        try {
          sessionStorage.setItem(orderEmailKey(created.code), body.customer.email.trim());
        } catch {
          // Storage refused (private mode, quota): the order page then asks for the e-mail.
        }
        setNavigating(true);
        if (created.checkoutUrl) window.location.assign(created.checkoutUrl);
        else router.push({ pathname: pagePath.order(created.code), query: { placed: '1' } });
        return { ok: true, ...created };
      } catch (error) {
        // Over the per-address order limit (429): say so, rather than "try again in a moment".
        if (isRateLimited(error)) return { ok: false, kind: 'rateLimited' };
        const problems = problemsOf(error);
        return problems ? { ok: false, kind: 'invalid', problems } : { ok: false, kind: 'failed' };
      }
    },
    [mutation, router],
  );

  return { submit, isPending: mutation.isPending || navigating };
}
