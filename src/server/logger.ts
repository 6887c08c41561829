import { format } from 'node:util';

/**
 * The shop's log: one line per message on stderr/stdout. Kept tiny on purpose; callers must never
 * pass secrets or customers' personal data.
 */
export const logger = {
  info: (message: string, ...args: unknown[]) => console.log(`[shop] ${format(message, ...args)}`),
  warn: (message: string, ...args: unknown[]) => console.warn(`[shop] ${format(message, ...args)}`),
  error: (message: string, ...args: unknown[]) => console.error(`[shop] ${format(message, ...args)}`),
};
