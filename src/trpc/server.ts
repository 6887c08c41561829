import { cache } from 'react';
import { appRouter } from '@/server/api/root';
import type { AccountUser } from '@/server/accounts/service';
import { anonymous } from '@/server/api/actor';
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

/**
 * For a personal page (dynamic, never cached): the same procedures, called as the customer whom
 * the page found signed in (`pageCustomer`), or as nobody, so a customer's procedure answers as it
 * would to the browser itself (401 signed out).
 */
export const serverApiAs = (user: AccountUser | null) => createCaller(createContext({ actor: async () => (user ? { kind: 'customer', user } : anonymous) }));
