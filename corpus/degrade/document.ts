// A PDF as a scanner or a phone would hand it over. One page becomes a JPEG, uploaded as an image is (the API's
// image path reads one image as one page); more pages become a PDF of JPEG pages, as a scanner's multi-page output
// is: the API reads each image-only page through the same OCR (an upload of separate images would be separate
// documents, and no route joins them into one invoice).

import { PDFDocument } from 'pdf-lib';
import { Rng } from '../random.ts';
import { photoPage, photoParams, type PhotoParams } from './photo.ts';
import { renderPages } from './render.ts';
import { scanDpi, scanPage, scanParams } from './scan.ts';

export const DEGRADE_MODES = ['scan', 'photo'] as const;
export type DegradeMode = (typeof DEGRADE_MODES)[number];

export interface DegradedDocument {
  bytes: Buffer;
  ext: 'jpg' | 'pdf';
  pages: number;
  /** The resolution each page was rendered at. */
  dpi: number[];
}

/** `key` seeds everything (the same key gives the same bytes): the eval uses `${seed}/${file}`. */
export async function degradeDocument(pdf: Uint8Array, mode: DegradeMode, key: string): Promise<DegradedDocument> {
  const dpi = scanDpi(new Rng(`${key}/${mode}`));
  // One stream per page: its parameters first, then its pixels' noise.
  const rngs = new Map<number, Rng>();
  const rngOf = (n: number) => rngs.get(n) ?? (rngs.set(n, new Rng(`${key}/${mode}/${n}`)), rngs.get(n)!);
  const photos = new Map<number, PhotoParams>();
  const pages = await renderPages(pdf, (w, h, n) => {
    if (mode === 'scan') return dpi;
    photos.set(n, photoParams(rngOf(n), w, h));
    return photos.get(n)!.dpi;
  });
  const images: { jpeg: Buffer; widthPt: number; heightPt: number }[] = [];
  for (const [i, page] of pages.entries()) {
    const rng = rngOf(i + 1);
    const p = photos.get(i + 1);
    if (!p) images.push({ jpeg: await scanPage(page.image, scanParams(rng), rng), widthPt: page.widthPt, heightPt: page.heightPt });
    // The photo's page is its whole frame, at the resolution the sheet was rendered at.
    else images.push({ jpeg: await photoPage(page.image, p, rng), widthPt: (p.frame.width * 72) / p.dpi, heightPt: (p.frame.height * 72) / p.dpi });
  }
  const dpis = pages.map((p) => p.dpi);
  if (images.length === 1) return { bytes: images[0]!.jpeg, ext: 'jpg', pages: 1, dpi: dpis };
  return { bytes: await imagePdf(images), ext: 'pdf', pages: images.length, dpi: dpis };
}

/** A PDF whose every page is one JPEG, at the page's size; no dates or ids, so the bytes depend on the images alone. */
async function imagePdf(images: { jpeg: Buffer; widthPt: number; heightPt: number }[]): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const im of images) {
    const jpg = await doc.embedJpg(im.jpeg);
    doc.addPage([im.widthPt, im.heightPt]).drawImage(jpg, { x: 0, y: 0, width: im.widthPt, height: im.heightPt });
  }
  return Buffer.from(await doc.save());
}
