import { afterEach, expect, test, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

const get = async (file: string) => {
  const route = await import('@/app/api/indexnow-key/[file]/route');
  return route.GET(new Request(`http://shop.test/${file}`), { params: Promise.resolve({ file }) });
};

test('the IndexNow key file answers the key, and nothing else answers', async () => {
  vi.stubEnv('INDEXNOW_KEY', 'a1b2c3d4e5f6');
  vi.resetModules();
  const found = await get('a1b2c3d4e5f6.txt');
  expect(found.status).toBe(200);
  expect(await found.text()).toBe('a1b2c3d4e5f6');
  expect((await get('0000000000.txt')).status).toBe(404);
});

test('with no key configured there is no key file', async () => {
  vi.stubEnv('INDEXNOW_KEY', '');
  vi.resetModules();
  expect((await get('a1b2c3d4e5f6.txt')).status).toBe(404);
});
