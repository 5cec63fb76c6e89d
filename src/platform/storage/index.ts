import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { createGcsBlobStore } from './gcs-blob-store.ts';
import { createLocalBlobStore } from './local-blob-store.ts';

export { BlobNotFoundError, type BlobStore } from './blob-store.ts';

/** GCS when a bucket is configured, else files under DATA_DIR/blobs. */
export function createBlobStore(config: Pick<Config, 'dataDir' | 'gcs'>): BlobStore {
  return config.gcs ? createGcsBlobStore(config.gcs) : createLocalBlobStore(path.join(config.dataDir, 'blobs'));
}
