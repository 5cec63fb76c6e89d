import { InvalidInput } from '../errors.ts';

/**
 * Where uploaded documents are kept: local files under DATA_DIR by default, Google Cloud Storage when a bucket
 * is configured. Keys are relative paths such as `<tenantId>/<documentId>.pdf`.
 */
export interface BlobStore {
  readonly kind: 'local' | 'gcs';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes; throws BlobNotFoundError when there is none. */
  get(key: string): Promise<Buffer>;
  /** Removes the blob; removing a missing blob is not an error. */
  delete(key: string): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob ${key} not found`);
  }
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are built by us, but a bad one must never escape the store's root (no `..`, no absolute paths). */
export function assertBlobKey(key: string): void {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new InvalidInput(`invalid blob key "${key}"`);
  }
}
