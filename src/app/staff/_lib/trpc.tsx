'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { httpBatchLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import { useState, type ReactNode } from 'react';
import type { StaffDashboardRouter } from '@/server/staff/router';
import { MAX_TRPC_BATCH } from '@/shared/trpc-batch';

/** The dashboard's typed client, over /staff/api/trpc, where the session cookie (Path=/staff) is sent. */
export const staffApi = createTRPCReact<StaffDashboardRouter>();

export function StaffApiProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }));
  const [client] = useState(() => staffApi.createClient({ links: [httpBatchLink({ url: '/staff/api/trpc', maxItems: MAX_TRPC_BATCH })] }));
  return (
    <staffApi.Provider client={client} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </staffApi.Provider>
  );
}
