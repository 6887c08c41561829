import type { PlainAnswer, RestRequest } from '@/server/http/answers';
import type { FrontSettings } from './front';

/**
 * What the app hands the front once Next has loaded it: the /v1 handler and the settings the front
 * needs. The front answers /v1 itself (through Next's router a cached catalog read costs about
 * seven times as much: 3,100 against 470 requests/s, measured 2026-11-24), but it must not load
 * src/server a second time beside Next's bundle (two database pools, two response caches). So
 * src/instrumentation.ts, which Next runs inside its bundle when the server starts, leaves the
 * bundle's own handler here, and the front takes it from here: one copy of the server per process.
 */
export interface FrontBridge {
  /** The /v1 surface (`answerRest` of src/server/api/rest.ts: handleRest's answer, a PlainAnswer where it can be). */
  rest: (request: RestRequest) => Promise<Response | PlainAnswer>;
  settings: FrontSettings;
  /** Where the shop's forms may post (the pages' `form-action`, src/front/csp.ts). */
  formActions: string[];
  /** The app's log (scrubbed of secrets, with the request's id), for what the front has to say. */
  log: FrontLog;
}

export interface FrontLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

// On globalThis: Next's bundle and the front's are two module graphs in one process.
const BRIDGE_KEY = Symbol.for('atelier-prints.front-bridge');

interface Slot {
  bridge?: FrontBridge;
  waiting: ((bridge: FrontBridge) => void)[];
}

function slot(): Slot {
  const holder = globalThis as { [BRIDGE_KEY]?: Slot };
  return (holder[BRIDGE_KEY] ??= { waiting: [] });
}

/** Called by the app inside Next (src/instrumentation.ts). */
export function offerToFront(bridge: FrontBridge): void {
  const at = slot();
  at.bridge = bridge;
  for (const resolve of at.waiting.splice(0)) resolve(bridge);
}

/** What the app offered, once Next has started (undefined before). */
export function offeredByApp(): FrontBridge | undefined {
  return slot().bridge;
}

/**
 * What the app offers, when it does: Next runs src/instrumentation.ts while it starts, which may
 * end after `app.prepare()` resolves. Rejects after `timeoutMs`.
 */
export function whenOffered(timeoutMs: number): Promise<FrontBridge> {
  const at = slot();
  if (at.bridge) return Promise.resolve(at.bridge);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app offered nothing to the front within ${timeoutMs} ms (src/instrumentation.ts)`)), timeoutMs);
    at.waiting.push((bridge) => {
      clearTimeout(timer);
      resolve(bridge);
    });
  });
}
