import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BlobNotFoundError, type BlobStore } from '../../src/platform/storage/blob-store.ts';
import { createGcsBlobStore } from '../../src/platform/storage/gcs-blob-store.ts';
import { createLocalBlobStore } from '../../src/platform/storage/local-blob-store.ts';
import { type FakeGcs, startFakeGcs } from '../helpers/gcs-server.ts';

let gcs: FakeGcs;
const root = mkdtempSync(path.join(os.tmpdir(), 'blobs-'));

beforeAll(async () => {
  gcs = await startFakeGcs('partner-docs');
});
afterAll(() => gcs?.close());

const stores: Array<[string, () => BlobStore]> = [
  ['local', () => createLocalBlobStore(root)],
  ['gcs', () => createGcsBlobStore({ bucket: 'partner-docs', apiEndpoint: gcs.endpoint, projectId: 'test' })],
];

describe.each(stores)('%s blob store', (_kind, make) => {
  test('stores, returns and deletes bytes exactly', async () => {
    const store = make();
    const bytes = randomBytes(300_000);
    const key = `tenant-${randomBytes(4).toString('hex')}/doc-1.pdf`;
    await store.put(key, bytes, 'application/pdf');
    expect((await store.get(key)).equals(bytes)).toBe(true);
    await store.delete(key);
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await store.delete(key); // deleting twice is fine
  });

  test('overwrites a key and rejects keys that could escape the store', async () => {
    const store = make();
    await store.put('t/a.png', Buffer.from('one'), 'image/png');
    await store.put('t/a.png', Buffer.from('two'), 'image/png');
    expect((await store.get('t/a.png')).toString()).toBe('two');
    for (const bad of ['../etc/passwd', '/abs', 't/../../x', '', 't//x']) {
      await expect(store.put(bad, Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid blob key/);
    }
  });
});

test('the GCS store really speaks the JSON API: multipart upload with the content type, media download', async () => {
  const store = createGcsBlobStore({ bucket: 'partner-docs', apiEndpoint: gcs.endpoint });
  gcs.requests.length = 0;
  await store.put('t1/receipt.jpg', Buffer.from('jpeg bytes'), 'image/jpeg');
  expect(gcs.objects.get('t1/receipt.jpg')).toEqual({ bytes: Buffer.from('jpeg bytes'), contentType: 'image/jpeg' });
  expect((await store.get('t1/receipt.jpg')).toString()).toBe('jpeg bytes');
  expect(gcs.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
    'POST /upload/storage/v1/b/partner-docs/o',
    'GET /storage/v1/b/partner-docs/o/t1%2Freceipt.jpg',
  ]);
});

test('a GCS server error surfaces as an error (after the client retries), never as success', async () => {
  const store = createGcsBlobStore({ bucket: 'partner-docs', apiEndpoint: gcs.endpoint });
  gcs.failNext(403, 10);
  await expect(store.put('t1/x.pdf', Buffer.from('x'), 'application/pdf')).rejects.toThrow();
  gcs.failNext(403, 0);
  expect(gcs.objects.has('t1/x.pdf')).toBe(false);
});

test('local writes leave no temporary files behind', async () => {
  const store = createLocalBlobStore(root);
  await store.put('clean/file.bin', randomBytes(10), 'application/octet-stream');
  expect(readdirSync(path.join(root, 'clean'))).toEqual(['file.bin']);
});

test('configuration picks the store: local by default, GCS when GCS_BUCKET is set', async () => {
  const { loadConfig } = await import('../../src/platform/config.ts');
  const { createBlobStore } = await import('../../src/platform/storage/index.ts');
  expect(createBlobStore(loadConfig({ DATA_DIR: root })).kind).toBe('local');
  const config = loadConfig({ DATA_DIR: root, GCS_BUCKET: 'partner-docs', GCS_API_ENDPOINT: gcs.endpoint });
  const store = createBlobStore(config);
  expect(store.kind).toBe('gcs');
  await store.put('cfg/x.txt', Buffer.from('via config'), 'text/plain');
  expect(gcs.objects.get('cfg/x.txt')?.bytes.toString()).toBe('via config');
});
