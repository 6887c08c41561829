import { TRPCClientError } from '@trpc/client';
import { describe, expect, test } from 'vitest';
import { retryOnceUnlessRefused } from '@/trpc/react';

const refusal = (httpStatus: number) => Object.assign(new TRPCClientError('refused'), { data: { httpStatus } });

describe("the website's query retries", () => {
  test('a refusal (404 not found, 429 too many lookups) is shown at once, not asked again', () => {
    expect(retryOnceUnlessRefused(0, refusal(404))).toBe(false);
    expect(retryOnceUnlessRefused(0, refusal(429))).toBe(false);
    expect(retryOnceUnlessRefused(0, refusal(400))).toBe(false);
  });

  test('a failure that may pass is retried once', () => {
    expect(retryOnceUnlessRefused(0, refusal(503))).toBe(true);
    expect(retryOnceUnlessRefused(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(retryOnceUnlessRefused(1, new TypeError('Failed to fetch'))).toBe(false);
  });
});
