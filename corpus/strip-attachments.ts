// Removes embedded files from PDFs (the ZUGFeRD / Factur-X XML of e-invoices): the catalog's EmbeddedFiles name
// tree, associated files (/AF on the catalog and pages), file-attachment annotations, and then every object no
// longer reachable from the trailer, so the attachment's bytes are gone too. The page content is not touched:
// `verifyStripped` checks that pdf.js reads the same words from every page and finds no attachment left.
// (The XMP metadata, which may still name the Factur-X profile, is kept.)

import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, type PDFObject } from 'pdf-lib';
import { loadPdfJs, openPdf } from '../src/extraction/pdf-text.ts';

const N = (s: string) => PDFName.of(s);

/** Filespec references in a name tree (Names: [name, spec, …], Kids: [node, …]). */
function nameTreeSpecs(doc: PDFDocument, node: PDFDict | undefined, out: Set<PDFObject>): void {
  if (!node) return;
  const names = node.lookupMaybe(N('Names'), PDFArray);
  if (names) for (let i = 1; i < names.size(); i += 2) out.add(names.get(i));
  const kids = node.lookupMaybe(N('Kids'), PDFArray);
  if (kids) for (let i = 0; i < kids.size(); i++) nameTreeSpecs(doc, kids.lookupMaybe(i, PDFDict), out);
}

/** Deletes every indirect object that cannot be reached from the trailer (Root, Info, Encrypt). */
function collectGarbage(doc: PDFDocument): void {
  const ctx = doc.context;
  const seen = new Set<string>();
  const walk = (obj: PDFObject | undefined): void => {
    if (!obj) return;
    if (obj instanceof PDFRef) {
      if (seen.has(obj.tag)) return;
      seen.add(obj.tag);
      return walk(ctx.lookup(obj));
    }
    if (obj instanceof PDFDict) for (const [, v] of obj.entries()) walk(v);
    else if (obj instanceof PDFStream) for (const [, v] of obj.dict.entries()) walk(v);
    else if (obj instanceof PDFArray) for (let i = 0; i < obj.size(); i++) walk(obj.get(i));
  };
  const t = ctx.trailerInfo;
  for (const root of [t.Root, t.Info, t.Encrypt]) walk(root as PDFObject | undefined);
  for (const [ref] of ctx.enumerateIndirectObjects()) if (!seen.has(ref.tag)) ctx.delete(ref);
}

export interface StripResult {
  bytes: Uint8Array;
  /** Embedded files (file specifications) removed. */
  removed: number;
}

export async function stripAttachments(input: Uint8Array): Promise<StripResult> {
  const doc = await PDFDocument.load(input, { updateMetadata: false });
  const catalog = doc.catalog;
  const specs = new Set<PDFObject>();
  const names = catalog.lookupMaybe(N('Names'), PDFDict);
  if (names?.has(N('EmbeddedFiles'))) {
    nameTreeSpecs(doc, names.lookupMaybe(N('EmbeddedFiles'), PDFDict), specs);
    names.delete(N('EmbeddedFiles'));
    if (names.keys().length === 0) catalog.delete(N('Names'));
  }
  const dropAF = (dict: PDFDict) => {
    const af = dict.lookupMaybe(N('AF'), PDFArray);
    if (af) for (let i = 0; i < af.size(); i++) specs.add(af.get(i));
    dict.delete(N('AF'));
  };
  dropAF(catalog);
  for (const page of doc.getPages()) {
    dropAF(page.node);
    const annots = page.node.Annots();
    if (!annots) continue;
    for (let i = annots.size() - 1; i >= 0; i--) {
      const a = annots.lookupMaybe(i, PDFDict);
      if (a?.lookupMaybe(N('Subtype'), PDFName) === N('FileAttachment')) {
        const fs = a.get(N('FS'));
        if (fs) specs.add(fs);
        annots.remove(i);
      }
    }
  }
  if (catalog.lookupMaybe(N('PageMode'), PDFName) === N('UseAttachments')) catalog.delete(N('PageMode'));
  catalog.delete(N('Collection'));
  collectGarbage(doc);
  const unique = new Set([...specs].map((s) => (s instanceof PDFRef ? s.tag : s)));
  return { bytes: await doc.save({ addDefaultPage: false, updateFieldAppearances: false }), removed: unique.size };
}

/** The words pdf.js reads on every page (text and position), and the number of attachments it finds. */
async function readBack(bytes: Uint8Array): Promise<{ words: string[]; attachments: number }> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 });
  const doc = await task.promise;
  const attachments = Object.keys((await doc.getAttachments()) ?? {}).length;
  await task.destroy();
  const pdf = await openPdf(new Uint8Array(bytes));
  const words: string[] = [];
  try {
    for (let p = 1; p <= pdf.numPages; p++) for (const w of (await pdf.readTextPage(p)).words) words.push(`${p}:${w.text}@${w.x.toFixed(1)},${w.y.toFixed(1)}`);
  } finally {
    await pdf.close();
  }
  return { words, attachments };
}

export interface Verification {
  attachmentsBefore: number;
  attachmentsLeft: number;
  words: number;
  textUnchanged: boolean;
}

export async function verifyStripped(original: Uint8Array, stripped: Uint8Array): Promise<Verification> {
  const [a, b] = await Promise.all([readBack(original), readBack(stripped)]);
  return {
    attachmentsBefore: a.attachments,
    attachmentsLeft: b.attachments,
    words: a.words.length,
    textUnchanged: a.words.length === b.words.length && a.words.every((w, i) => w === b.words[i]),
  };
}

export interface StripSummary {
  files: number;
  pdfs: number;
  attachmentsRemoved: number;
  /** Files whose check failed: text changed or an attachment left. */
  problems: string[];
}

/** Copies `inDir` (manifest.json and the files it lists) to `outDir` with the PDFs' attachments removed. */
export async function stripFolder(inDir: string, outDir: string): Promise<StripSummary> {
  await mkdir(outDir, { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(inDir, 'manifest.json'), 'utf8')) as { file: string }[];
  const summary: StripSummary = { files: manifest.length, pdfs: 0, attachmentsRemoved: 0, problems: [] };
  for (const { file } of manifest) {
    const bytes = new Uint8Array(await readFile(path.join(inDir, file)));
    if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
      await copyFile(path.join(inDir, file), path.join(outDir, file));
      continue;
    }
    summary.pdfs++;
    const { bytes: out, removed } = await stripAttachments(bytes);
    const v = await verifyStripped(bytes, out);
    summary.attachmentsRemoved += removed;
    if (!v.textUnchanged) summary.problems.push(`${file}: the text layer changed`);
    if (v.attachmentsLeft) summary.problems.push(`${file}: ${v.attachmentsLeft} attachment(s) left`);
    await writeFile(path.join(outDir, file), out);
  }
  await copyFile(path.join(inDir, 'manifest.json'), path.join(outDir, 'manifest.json'));
  return summary;
}
