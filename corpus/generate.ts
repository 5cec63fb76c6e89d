// The corpus generator: document i of a seed is the same PDF and ground truth on every run and machine (given
// the same fonts; the ground truth never depends on fonts). Languages and layout families are assigned in turn,
// so any 98 consecutive documents cover every (language, family) pair once.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pickDesign, pickWords, formatters } from './design.ts';
import { LAYOUTS, NARROW, type LayoutFamily } from './layouts.ts';
import { LANGUAGES, LOCALES, type Language } from './locales/index.ts';
import { Canvas } from './pdf/canvas.ts';
import { pickProducer, type ProducerStyle } from './pdf/producer.ts';
import { Rng } from './random.ts';
import type { Ctx } from './render/context.ts';
import { renderInvoice } from './render/invoice.ts';
import { renderNarrow } from './render/narrow.ts';
import { renderSheet } from './render/sheet.ts';
import { expectedOf, makeTruth, type InvoiceTruth } from './truth.ts';

export interface CorpusOptions {
  seed: number;
  count: number;
  languages?: readonly Language[];
  layouts?: readonly LayoutFamily[];
}

export interface CorpusEntry {
  file: string;
  kind: 'invoice';
  language: Language;
  layout: LayoutFamily;
  country: string;
  font: string;
  /** How the text is written into the PDF (pdf/producer.ts). */
  producer: ProducerStyle;
  pages: number;
  expected: ReturnType<typeof expectedOf>;
}

export interface PlannedDocument {
  index: number;
  language: Language;
  layout: LayoutFamily;
}

/** Which language and family document i gets. */
export function planCorpus(o: CorpusOptions): PlannedDocument[] {
  const langs = o.languages?.length ? o.languages : LANGUAGES;
  const layouts = o.layouts?.length ? o.layouts : LAYOUTS;
  return Array.from({ length: o.count }, (_, index) => ({
    index,
    layout: layouts[index % layouts.length]!,
    language: langs[Math.floor(index / layouts.length) % langs.length]!,
  }));
}

export interface GeneratedDocument {
  pdf: Buffer;
  entry: CorpusEntry;
  truth: InvoiceTruth;
  /** Text off the page or drawn over other text (the generator's own checks; empty when the layout is sound). */
  faults: string[];
}

export async function generateDocument(seed: number, doc: PlannedDocument): Promise<GeneratedDocument> {
  const rng = new Rng(`${seed}/${doc.index}/${doc.language}/${doc.layout}`);
  const t = makeTruth(rng, { language: doc.language, layout: doc.layout, locale: LOCALES[doc.language] });
  const d = pickDesign(rng, t);
  const w = pickWords(rng, t);
  // A stream of its own: the producer style never moves the design or the truth drawn above.
  const producer = pickProducer(new Rng(`${seed}/${doc.index}/${doc.language}/${doc.layout}/producer`));
  const c = new Canvas(d.face, d.page, `${w.invoice} ${t.number}`, producer);
  const ctx: Ctx = { c, t, w, d, f: formatters(t), rng, dueShown: false };
  const pdf = await (NARROW.has(t.layout) ? renderNarrow(ctx) : t.layout === 'data-sheet' ? renderSheet(ctx) : renderInvoice(ctx));
  const file = `gen-${seed}-${String(doc.index).padStart(4, '0')}-${doc.language}-${doc.layout}.pdf`;
  const entry: CorpusEntry = {
    file,
    kind: 'invoice',
    language: t.language,
    layout: t.layout,
    country: t.country.code,
    font: d.face.label,
    producer: producer.style,
    pages: c.pageCount,
    expected: expectedOf(t),
  };
  return { pdf, entry, truth: t, faults: c.faults() };
}

/** Writes the PDFs and their manifest.json into `dir`; returns the manifest. */
export async function writeCorpus(dir: string, o: CorpusOptions): Promise<CorpusEntry[]> {
  await mkdir(dir, { recursive: true });
  const manifest: CorpusEntry[] = [];
  for (const doc of planCorpus(o)) {
    const { pdf, entry } = await generateDocument(o.seed, doc);
    await writeFile(path.join(dir, entry.file), pdf);
    manifest.push(entry);
  }
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1));
  return manifest;
}
