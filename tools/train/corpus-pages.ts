// The training and held-out documents of `npm run train`: generated invoices (corpus/, standard PDF fonts only, so
// the pages do not depend on which fonts a machine has installed) read by the engine's own reader, cached per seed
// under node_modules/.cache so a second run skips the reading.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useVocabularyHalf } from '../../corpus/extras.ts';
import { generateDocument, planCorpus, type CorpusEntry } from '../../corpus/generate.ts';
import { useStandardFontsOnly } from '../../corpus/pdf/fonts.ts';
import { createDocumentReader } from '../../src/extraction/reader.ts';
import type { PageText } from '../../src/extraction/types.ts';

export interface TrainingDoc {
  entry: CorpusEntry;
  pages: PageText[];
}

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/partner-api/train', import.meta.url));

/**
 * `count` generated invoices of `seed` (mixed labels, the held-apart ones from one half of the vocabulary's phrases),
 * with the pages the reader gives of each.
 */
export async function corpusPages(seed: number, count: number, half: 0 | 1, log: (s: string) => void): Promise<TrainingDoc[]> {
  const file = path.join(CACHE, `corpus-${seed}-${count}-half${half}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as TrainingDoc[];
  useStandardFontsOnly();
  useVocabularyHalf(half);
  const started = performance.now();
  const reader = createDocumentReader({});
  try {
    const docs = await Promise.all(
      planCorpus({ seed, count }).map(async (planned) => {
        const { pdf, entry } = await generateDocument(seed, planned, 'mixed');
        const read = await reader.read(pdf, 'invoice', { transfer: true });
        return { entry, pages: read.pages.map(({ ms: _ms, ...p }) => ({ ...p, ms: 0 })) };
      }),
    );
    useVocabularyHalf(null);
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(file, JSON.stringify(docs));
    log(`seed ${seed}: ${docs.length} invoices generated and read in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return docs;
  } finally {
    await reader.close();
  }
}
