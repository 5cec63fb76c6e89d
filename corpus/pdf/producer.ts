// How a document's text is written into the PDF ("producer style"). Real producers seldom write one clean text
// object per string: they place every glyph or word on its own, leave spaces out (the space is only a gap in x),
// split words into runs, letter-space headings and write the content stream out of reading order. A style
// changes only how the same text lands in the content stream, never what the page shows where, nor the ground truth.

import type { Rng } from '../random.ts';

export type ProducerStyle = 'clean' | 'glyphs' | 'word-runs' | 'tj-gaps' | 'split-runs' | 'letter-spaced' | 'shuffled';

/** Shares of the styles (docs/decisions.md, "Producer styles"). */
export const PRODUCER_SHARES: ReadonlyArray<readonly [ProducerStyle, number]> = [
  ['clean', 0.3],
  ['glyphs', 0.12],
  ['word-runs', 0.12],
  ['tj-gaps', 0.1],
  ['split-runs', 0.12],
  ['letter-spaced', 0.12],
  ['shuffled', 0.12],
];

export interface Producer {
  style: ProducerStyle;
  /** The style's own stream: its choices never move the document's design or truth. */
  rng: Rng;
}

export function pickProducer(rng: Rng): Producer {
  return { style: rng.weighted(PRODUCER_SHARES), rng };
}

export interface TextRun {
  s: string;
  x: number;
  y: number;
  w: number;
  size: number;
  bold: boolean;
  color: string;
}

/** Headings: what designed invoices letter-space. */
const isHeading = (t: TextRun) => t.bold && t.size >= 12.5;
/** Character spacing of a letter-spaced heading, in ems of its (shrunk) size. */
const TRACKING = 0.25;

/** The page's text runs in the order the style writes them. */
export function drawOrder<T>(runs: T[], p: Producer): T[] {
  if (p.style !== 'shuffled' || runs.length < 3) return runs;
  // Blocks of consecutive runs (a paragraph, a table row, a column) in random order, some written back to front.
  const blocks: T[][] = [];
  for (let i = 0; i < runs.length;) {
    const n = p.rng.int(2, 10);
    const block = runs.slice(i, i + n);
    blocks.push(p.rng.chance(0.3) ? block.reverse() : block);
    i += n;
  }
  return p.rng.sample(blocks, blocks.length).flat();
}

/** Writes one run in the producer's style; the glyphs land where a clean run would put them. */
export function writeRun(doc: PDFKit.PDFDocument, font: string, t: TextRun, p: Producer): void {
  doc.font(font).fontSize(t.size).fillColor(t.color);
  const at = (s: string, x: number, y = t.y, o: PDFKit.Mixins.TextOptions = {}) => void doc.text(s, x, y, { lineBreak: false, ...o });
  /** x of the character at `i` (the width of what comes before it). */
  const xOf = (i: number) => t.x + doc.widthOfString(t.s.slice(0, i));
  switch (p.style) {
    case 'glyphs':
      for (let i = 0; i < t.s.length; i++) if (t.s[i]!.trim()) at(t.s[i]!, xOf(i));
      return;
    case 'word-runs':
      for (const m of t.s.matchAll(/\S+/g)) at(m[0], xOf(m.index));
      return;
    case 'tj-gaps':
      // pdfkit writes a run with word spacing as one TJ array without its space characters.
      if (/\s/.test(t.s.trim())) at(t.s, t.x, t.y, { wordSpacing: 1e-6 });
      else at(t.s, t.x);
      return;
    case 'split-runs': {
      // Every word cut into one to three runs (a font switch, a kerning pair), the words of a line written in an
      // order of their own: right-aligned amounts and labels are often written last.
      const words: Array<Array<[string, number]>> = [];
      for (const m of t.s.matchAll(/\S+/g)) {
        const cuts = new Set<number>();
        for (let k = p.rng.int(0, 2); k > 0 && m[0].length > 1; k--) cuts.add(p.rng.int(1, m[0].length - 1));
        const bounds = [0, ...[...cuts].sort((a, b) => a - b), m[0].length];
        words.push(bounds.slice(1).map((end, j): [string, number] => [m[0].slice(bounds[j], end), m.index + bounds[j]!]));
      }
      for (const [s, i] of (p.rng.chance(0.4) ? p.rng.sample(words, words.length) : words).flat()) at(s, xOf(i));
      return;
    }
    case 'letter-spaced':
      if (isHeading(t) && t.s.length > 1) {
        // Shrunk so that the letter-spaced heading keeps its width, on the same baseline.
        const k = t.w / (t.w + TRACKING * t.size * (t.s.length - 1));
        const ascent = ((doc as unknown as { _font: { ascender: number } })._font.ascender / 1000) * t.size;
        doc.fontSize(t.size * k);
        at(t.s, t.x, t.y + ascent * (1 - k), { characterSpacing: TRACKING * t.size * k });
        return;
      }
      at(t.s, t.x);
      return;
    default:
      at(t.s, t.x);
  }
}
