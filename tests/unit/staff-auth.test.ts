import { expect, test } from 'vitest';
import { isStaff } from '@/server/api/staff-auth';

test('the staff token opens staff endpoints; anything else does not', () => {
  expect(isStaff('Bearer s3cret-token', 's3cret-token')).toBe(true);
  expect(isStaff('bearer   s3cret-token ', 's3cret-token')).toBe(true);
  expect(isStaff('Bearer s3cret-tokeN', 's3cret-token')).toBe(false);
  expect(isStaff('Bearer s3cret-token-and-more', 's3cret-token')).toBe(false);
  expect(isStaff('s3cret-token', 's3cret-token')).toBe(false);
  expect(isStaff('Basic czNjcmV0LXRva2Vu', 's3cret-token')).toBe(false);
  expect(isStaff(null, 's3cret-token')).toBe(false);
});

test('with no ADMIN_TOKEN configured, staff endpoints stay closed', () => {
  expect(isStaff('Bearer ', undefined)).toBe(false);
  expect(isStaff('Bearer anything', undefined)).toBe(false);
  expect(isStaff('Bearer anything', '')).toBe(false);
});
