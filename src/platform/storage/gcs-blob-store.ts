import type { Bucket } from '@google-cloud/storage';
import { assertBlobKey, BlobNotFoundError, type BlobStore } from './blob-store.ts';

export interface GcsOptions {
  bucket: string;
  /** Another endpoint speaking the GCS JSON API (an emulator, a test server). Requests to it are not authenticated. */
  apiEndpoint?: string;
  projectId?: string;
}

/**
 * Google Cloud Storage through @google-cloud/storage. The client is imported and built on first use only:
 * constructing Google clients may probe the cloud metadata address, which must never happen unless a bucket
 * is really configured and used.
 */
export function createGcsBlobStore(options: GcsOptions): BlobStore {
  let bucket: Promise<Bucket> | undefined;
  const getBucket = () =>
    (bucket ??= import('@google-cloud/storage').then(({ Storage }) => {
      const storage = new Storage({
        ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
        ...(options.projectId ? { projectId: options.projectId } : {}),
        retryOptions: { autoRetry: true, maxRetries: 3 },
      });
      return storage.bucket(options.bucket);
    }));

  return {
    kind: 'gcs',
    async put(key, bytes, contentType) {
      assertBlobKey(key);
      const file = (await getBucket()).file(key);
      await file.save(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        resumable: false,
        contentType,
        validation: 'crc32c',
      });
    },
    async get(key) {
      assertBlobKey(key);
      try {
        const [contents] = await (await getBucket()).file(key).download();
        return contents;
      } catch (err) {
        if ((err as { code?: number }).code === 404) throw new BlobNotFoundError(key);
        throw err;
      }
    },
    async delete(key) {
      assertBlobKey(key);
      await (await getBucket()).file(key).delete({ ignoreNotFound: true });
    },
  };
}
