import fs from 'node:fs';
import path from 'node:path';

/** The pool of an empty or small embedded database: the idle server's memory target (docs/decisions.md). */
export const MIN_AUTO_BUFFERS_MB = 32;
/** The largest pool `auto` chooses: holds the HNSW index of ~130,000 searchable documents (~1.9 KB each). */
export const MAX_AUTO_BUFFERS_MB = 256;

/**
 * Postgres' shared_buffers for an embedded database: a size as given, or `auto` — the size of the data on disk
 * (`base/`: tables and indexes), at least 32MB and at most 256MB. PGlite initialises the whole pool at start, so
 * it costs resident memory whether used or not; an empty database keeps the small pool, and a large one gets a pool
 * its search index fits in (a 100k-document index read through a smaller pool spends most of a search re-reading
 * pages). Chosen when the database opens: a database that grew gets the larger pool at the next start.
 */
export function sharedBuffersFor(setting: string, pgdata: string): string {
  return setting === 'auto' ? autoSharedBuffers(directoryBytes(path.join(pgdata, 'base'))) : setting;
}

/** The `auto` pool for a database of `bytes` (tables and indexes). */
export function autoSharedBuffers(bytes: number): string {
  return `${Math.min(MAX_AUTO_BUFFERS_MB, Math.max(MIN_AUTO_BUFFERS_MB, Math.ceil(bytes / 2 ** 20)))}MB`;
}

/** Bytes of the regular files under `dir` (0 when it does not exist yet). */
function directoryBytes(dir: string): number {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(at);
    else if (entry.isFile()) total += fs.statSync(at).size;
  }
  return total;
}
