// PDF pages as grey images, drawn by the engine's own rasteriser (pdf.js + @napi-rs/canvas in
// src/extraction/pdf-text.ts): a scan or photo starts from the page the reader would render, not a second renderer.

import { openPdf } from '../../src/extraction/pdf-text.ts';
import { decodeGrey, type Grey } from './grey.ts';

export interface RenderedPage {
  /** The page's size in points (after its /Rotate). */
  widthPt: number;
  heightPt: number;
  dpi: number;
  image: Grey;
}

/**
 * Every page of `pdf`, each at the resolution `dpiFor` gives for its size (pdf.js detaches the bytes it is given:
 * a copy is handed over).
 */
export async function renderPages(pdf: Uint8Array, dpiFor: (widthPt: number, heightPt: number, page: number) => number): Promise<RenderedPage[]> {
  const doc = await openPdf(new Uint8Array(pdf));
  try {
    const pages: RenderedPage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const { width, height } = await doc.readTextPage(n);
      const dpi = dpiFor(width, height, n);
      const r = await doc.renderPage(n, dpi, 5000);
      if (!r) throw new Error('no canvas: @napi-rs/canvas is needed to render pages');
      pages.push({ widthPt: width, heightPt: height, dpi, image: await decodeGrey(r.png) });
    }
    return pages;
  } finally {
    await doc.close();
  }
}
