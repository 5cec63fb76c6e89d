// A DocumentReader for eval/search/main.ts `--pages <dir>` only: answers with the pages that
// `npm run dump-pages -- <dataset> <dir>` saved (<dir>/<file>.json = { fileType, pages } or { error }),
// so a tuning loop skips OCR. Documents are recognised by the SHA-256 of their bytes; everything after reading
// (understanding, recording, indexing) is the real code path.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DocumentReader } from '../../src/extraction/reader.ts';
import { type FileType, type PageText, UnreadableDocumentError } from '../../src/extraction/types.ts';
import { ReadPool } from '../../src/extraction/worker-pool.ts';

interface CachedRead {
  fileType?: FileType;
  pages?: PageText[];
  error?: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function createCachedPagesReader(datasetDir: string, pagesDir: string, files: readonly string[]): Promise<DocumentReader> {
  const byHash = new Map<string, CachedRead & { file: string }>();
  for (const file of files) {
    const bytes = await readFile(path.join(datasetDir, file));
    const cached = JSON.parse(await readFile(path.join(pagesDir, `${file}.json`), 'utf8')) as CachedRead;
    byHash.set(sha256(bytes), { ...cached, file });
  }
  // Never runs a job (no worker is spawned until one is); present because DocumentReader exposes its pool.
  const pool = new ReadPool({ size: 1 });
  return {
    pool,
    async read(bytes) {
      const cached = byHash.get(sha256(bytes));
      if (!cached) throw new Error(`no cached pages in ${pagesDir} for this document`);
      if (!cached.pages || !cached.fileType) throw new UnreadableDocumentError(cached.error ?? `${cached.file}: no pages in the cache`);
      return { fileType: cached.fileType, pageCount: cached.pages.length, pages: cached.pages, notes: [], einvoice: null };
    },
    close: () => pool.close(),
  };
}
