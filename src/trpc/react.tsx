'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import { useState, type ReactNode } from 'react';
import type { AppRouter } from '@/server/api/root';
import { MAX_TRPC_BATCH } from '@/shared/trpc-batch';

/** The browser's typed client for the shop's procedures, over /api/trpc (the same ones /v1 serves). */
export const trpc = createTRPCReact<AppRouter>();

export function TrpcProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        // Catalog data changes at most with a publish run; refetching on every focus would be waste.
        defaultOptions: { queries: { staleTime: 60_000, refetchOnWindowFocus: false, retry: retryOnceUnlessRefused } },
      }),
  );
  const [client] = useState(() => trpc.createClient({ links: [httpBatchLink({ url: '/api/trpc', maxItems: MAX_TRPC_BATCH })] }));
  return (
    <trpc.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

/**
 * One retry for what may pass a moment later (the network, a 5xx), none for the server's refusal
 * (4xx): an order lookup answered "not found" or "too many lookups" would otherwise wait a second,
 * ask again and count twice against the shopper's lookup limit.
 */
export function retryOnceUnlessRefused(failures: number, error: unknown): boolean {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
  return failures < 1 && !(status !== undefined && status >= 400 && status < 500);
}
