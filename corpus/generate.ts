// The corpus generator: document i of a seed is the same PDF and ground truth on every run and machine (given
// the same fonts; the ground truth never depends on fonts). Languages and layout families are assigned in turn,
// so any 98 consecutive documents cover every (language, family) pair once. The label mode (extras.ts) changes
// labels and adds what issue 48 adds, never the truth or the design.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pickDesign, pickWords, formatters } from './design.ts';
import { distractorRecord, type DistractorRecord } from './distractors.ts';
import { keyLabelsOf, pickExtras, type LabelMode } from './extras.ts';
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
  /** Where labels come from (extras.ts); `mixed` unless given. */
  labels?: LabelMode;
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
  /**
   * Whether the key labels were drawn from the held-apart vocabulary (corpus/vocabulary) or from the locale's, which
   * are mostly the engine's own (`engine`, also every document of the `classic` mode).
   */
  labels: 'held-apart' | 'engine';
  /** The key labels the document's words hold, and its title line's template when the title carries number and date. */
  keyLabels: Record<string, string>;
  /** The other numbers and dates the document prints, and the names and amounts a field could be mistaken for. */
  distractors: DistractorRecord;
  /** How the letterhead shows the seller's name: as text, or only as a logo (vector paths; the name is in the text elsewhere). */
  sellerName: 'text' | 'logo';
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
  /** Where the seller's name was drawn as a logo (none when it is text). */
  logos: ReturnType<Canvas['logos']>;
}

export async function generateDocument(seed: number, doc: PlannedDocument, mode: LabelMode = 'mixed'): Promise<GeneratedDocument> {
  const key = `${seed}/${doc.index}/${doc.language}/${doc.layout}`;
  const rng = new Rng(key);
  const t = makeTruth(rng, { language: doc.language, layout: doc.layout, locale: LOCALES[doc.language] });
  const d = pickDesign(rng, t);
  const w = pickWords(rng, t);
  // Streams of their own: the producer style and the issue-48 extras never move the design or the truth drawn above.
  const producer = pickProducer(new Rng(`${key}/producer`));
  const x = pickExtras(key, t, w, mode, doc.index);
  const c = new Canvas(d.face, d.page, `${w.invoice} ${t.number}`, producer);
  const ctx: Ctx = { c, t, w, d, f: formatters(t), rng, dueShown: false, x, keyLabels: keyLabelsOf(t, w), printed: { numbers: {}, dates: {} } };
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
    labels: x?.heldApart ? 'held-apart' : 'engine',
    keyLabels: ctx.keyLabels,
    distractors: distractorRecord(t, x?.plan ?? null, ctx.printed),
    sellerName: x?.logo ? 'logo' : 'text',
    expected: expectedOf(t),
  };
  return { pdf, entry, truth: t, faults: c.faults(), logos: c.logos() };
}

/** Writes the PDFs and their manifest.json into `dir`; returns the manifest. */
export async function writeCorpus(dir: string, o: CorpusOptions): Promise<CorpusEntry[]> {
  await mkdir(dir, { recursive: true });
  const manifest: CorpusEntry[] = [];
  for (const doc of planCorpus(o)) {
    const { pdf, entry } = await generateDocument(o.seed, doc, o.labels);
    await writeFile(path.join(dir, entry.file), pdf);
    manifest.push(entry);
  }
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1));
  return manifest;
}
