// Scanned invoices for the OCR benchmarks: the corpus's documents of `seed` (till receipts and card slips left out),
// degraded as scans with the keys `npm run eval -- --corpus --seed N --scan` uses, so the bytes are the eval's.
// One page comes as a JPEG (an image upload), more as a PDF of images (a scanner's multi-page file).

import { degradeDocument } from '../corpus/degrade/document.ts';
import { generateDocument, planCorpus } from '../corpus/generate.ts';
import { NARROW, type LayoutFamily } from '../corpus/layouts.ts';

export interface ScannedInvoice {
  file: string;
  layout: LayoutFamily;
  bytes: Buffer;
  ext: 'jpg' | 'pdf';
  pages: number;
}

/** The first `count` documents of the corpus of `seed` that are invoices, as scans. */
export async function scannedInvoices(seed: number, count: number, only?: (layout: LayoutFamily) => boolean): Promise<ScannedInvoice[]> {
  const out: ScannedInvoice[] = [];
  for (const planned of planCorpus({ seed, count })) {
    if (NARROW.has(planned.layout) || (only && !only(planned.layout))) continue;
    const { pdf, entry } = await generateDocument(seed, planned);
    const d = await degradeDocument(pdf, 'scan', `${seed}/${entry.file}`);
    out.push({ file: entry.file, layout: entry.layout, bytes: d.bytes, ext: d.ext, pages: d.pages });
  }
  return out;
}
