import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertBlobKey, BlobNotFoundError, type BlobStore } from './blob-store.ts';

/** Blobs as files under `root` (DATA_DIR/blobs). Writes go to a temporary file first, so a crash never leaves half a file. */
export function createLocalBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => {
    assertBlobKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    kind: 'local',
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, file);
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
        throw err;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
