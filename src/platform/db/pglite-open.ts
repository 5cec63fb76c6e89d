import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

/**
 * PGlite with the extensions our migrations need: a data directory (a path, or memory://), optionally loaded from a
 * dump (tests), with Postgres' shared_buffers when given (default PGlite's 128MB).
 */
export function openPglite(options: { dataDir: string; sharedBuffers?: string; loadDataDir?: Blob }): Promise<PGlite> {
  const { dataDir, sharedBuffers, loadDataDir } = options;
  const startParams = sharedBuffers ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] : undefined;
  return PGlite.create({ dataDir, extensions: { vector }, ...(startParams ? { startParams } : {}), ...(loadDataDir ? { loadDataDir } : {}) });
}
