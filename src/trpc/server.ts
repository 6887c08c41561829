import { cache } from 'react';
import { appRouter } from '@/server/api/root';
import { createContext } from '@/server/api/context';
import { createCallerFactory } from '@/server/api/trpc';

const createCaller = createCallerFactory(appRouter);

/**
 * Server components call the very procedures /v1 and the browser call (same Zod input and output,
 * same errors), in-process, without HTTP. One caller per render (React `cache`).
 * Catalog reads need no request: they are the same for everyone, which is what lets catalog pages
 * be rendered once and served from Next's cache.
 */
export const serverApi = cache(() => createCaller(createContext()));
