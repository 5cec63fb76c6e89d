// Reads a folder's documents through the engine's reader (the entry the API uses for uploads) and scores them, one
// document at a time, timing each read on the wall clock (waiting for a worker included, as a partner waits).

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OcrEngineName } from '../../src/extraction/ocr-engine.ts';
import type { ReadResult } from '../../src/extraction/reader.ts';
import type { PageText } from '../../src/extraction/types.ts';
import { evaluate, type DocResult, type Entry } from './run.ts';

export interface Reading {
  docs: DocResult[];
  /** Wall time of each document's read (ms), by file. */
  wallMs: Map<string, number>;
}

const log = (s: string) => process.stderr.write(`${s}\n`);

/**
 * The documents read with the given OCR engine (whole results, or pages alone with `textOnly`). `warm` starts every
 * worker's OCR engine first and reads the first document once untimed, so no read pays for a model's loading.
 */
export async function evaluateWith(engine: OcrEngineName, dir: string, entries: Entry[], textOnly: boolean, warm = false): Promise<Reading> {
  const reader = (await import('../../src/extraction/reader.ts')).createDocumentReader({ ocr: { engine }, warm });
  const status = await reader.pool.ocrStatus(60_000);
  log(`OCR engine: ${status?.engine ?? 'unknown (not loaded within 60 s)'}${status?.fallbackReason ? ` — ${status.fallbackReason}` : ''}`);
  const bytesOf = async (e: Entry) => new Uint8Array(await readFile(path.join(dir, e.file)));
  const wallMs = new Map<string, number>();
  try {
    if (warm && entries[0]) await reader.read(await bytesOf(entries[0]), entries[0].kind).catch(() => undefined);
    const docs = await evaluate(entries, async (e): Promise<PageText[] | ReadResult> => {
      const bytes = await bytesOf(e);
      const t0 = performance.now();
      const r = await reader.read(bytes, e.kind);
      wallMs.set(e.file, performance.now() - t0);
      return textOnly ? r.pages : r;
    });
    return { docs, wallMs };
  } finally {
    await reader.close();
  }
}
