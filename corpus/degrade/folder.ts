// A labelled folder as scans or photos: every PDF of its manifest degraded (document.ts) into another folder with
// a manifest of its own; the labels stay, only `file` changes. Images (the dev receipts, already real scans and
// photos) are left out: degrading them again would measure nothing a partner sends.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { degradeDocument, type DegradeMode } from './document.ts';

export interface DegradedFolder<T> {
  entries: T[];
  /** Entries left out (not PDFs). */
  skipped: number;
  pages: number;
  ms: number;
}

const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');

/** Degrades `entries` (files of `dir`) into `out`; document `file` is seeded by `${seed}/${file}`. */
export async function degradeFolder<T extends { file: string }>(
  dir: string,
  entries: readonly T[],
  out: string,
  mode: DegradeMode,
  seed: number,
): Promise<DegradedFolder<T>> {
  const t0 = performance.now();
  await mkdir(out, { recursive: true });
  const done: T[] = [];
  let pages = 0;
  for (const e of entries) {
    const bytes = new Uint8Array(await readFile(path.join(dir, e.file)));
    if (!isPdf(bytes)) continue;
    const d = await degradeDocument(bytes, mode, `${seed}/${e.file}`);
    const file = `${e.file.replace(/\.pdf$/i, '')}.${mode}.${d.ext}`;
    await writeFile(path.join(out, file), d.bytes);
    done.push({ ...e, file });
    pages += d.pages;
  }
  await writeFile(path.join(out, 'manifest.json'), JSON.stringify(done, null, 1));
  return { entries: done, skipped: entries.length - done.length, pages, ms: performance.now() - t0 };
}
