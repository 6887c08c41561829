import { db } from '@/server/db/client';

export const customer = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0000',
  address: '12 St James Square',
  city: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'GB',
};

export const reproduction = (overrides: Record<string, unknown> = {}) => ({
  kind: 'reproduction',
  artworkSlug: 'the-starry-night',
  size: '50x70',
  frame: 'stretched',
  customer,
  ...overrides,
});

/** A stored photo for custom orders (the upload endpoint arrives with its own issue). */
export async function storedUpload(): Promise<string> {
  const upload = await db().upload.create({ data: { contentType: 'image/jpeg', size: 1024, sha256: '0'.repeat(64) } });
  return upload.id;
}

export const custom = async (overrides: Record<string, unknown> = {}) => ({
  kind: 'custom',
  uploadId: await storedUpload(),
  style: 'vangogh',
  subjects: 2,
  size: '30x40',
  frame: 'rolled',
  customer,
  ...overrides,
});

/** An e-mail address of exactly `length` characters. */
export const emailOfLength = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;
