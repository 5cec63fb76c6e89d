// The word builder on hand-made pdf.js text items: the same words and order whatever the producer did — glyphs or
// words placed one by one, words cut into runs, any content-stream order, letter-spaced headings, mixed sizes and
// superscripts on a line, rotated margin notes, text drawn twice.

import { beforeAll, describe, expect, it } from 'vitest';
import { glyphWidth } from '../../../src/extraction/glyph-widths.ts';
import { textItemsToWords } from '../../../src/extraction/text-words.ts';
import type { Word } from '../../../src/extraction/types.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: PdfJs;
beforeAll(async () => {
  pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
});

const PAGE_HEIGHT = 842;
const VIEWPORT = [1, 0, 0, -1, 0, PAGE_HEIGHT];
const STYLES = { R: { ascent: 0.8, descent: -0.2, fontFamily: 'sans-serif' } };

/** Advance of `s` in the Helvetica-like widths the reader assumes (spaces: 0.28 em; extra tracking per gap). */
const advance = (s: string, size: number, tracking = 0) =>
  [...s].reduce((w, c) => w + (/\s/.test(c) ? 0.28 + tracking : glyphWidth(c, 'sans') + tracking) * size, 0);

interface Item {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL: boolean;
}
/** A pdf.js text item at `x` on the baseline `y` (points from the top of the page). */
const item = (str: string, x: number, y: number, size = 10, width = advance(str, size)): Item => ({
  str,
  transform: [size, 0, 0, size, x, PAGE_HEIGHT - y],
  width,
  height: size,
  fontName: 'R',
  hasEOL: false,
});
/** `s` written one item per character (or per piece), each at its own x, no space characters. */
function pieces(s: string, x: number, y: number, cut: RegExp, size = 10): Item[] {
  return [...s.matchAll(cut)].map((m) => item(m[0], x + advance(s.slice(0, m.index), size), y, size));
}

const read = (items: Item[]): Word[] => textItemsToWords(pdfjs, VIEWPORT, items, STYLES);
const texts = (items: Item[]) => read(items).map((w) => w.text);
/** A fixed shuffle: every other item from the end, then the rest. */
const scramble = <T>(xs: T[]): T[] => [...xs.filter((_, i) => i % 2 === 1).reverse(), ...xs.filter((_, i) => i % 2 === 0)];

const LINE = 'Rechnung Nr. 2024-0815 vom 05.06.2024';
const EXPECTED = ['Rechnung', 'Nr.', '2024-0815', 'vom', '05.06.2024'];

describe('word builder (pdf.js text items → words)', () => {
  it('rebuilds words from glyphs placed one by one, with the spaces only gaps in x', () => {
    expect(texts(pieces(LINE, 60, 100, /\S/g))).toEqual(EXPECTED);
    expect(texts(pieces(LINE, 60, 100, /\S+/g))).toEqual(EXPECTED);
  });

  it('reads the same words at the same places whatever the content-stream order', () => {
    const glyphs = [...pieces(LINE, 60, 100, /\S/g), item('Total 1.234,56 EUR', 60, 140), item('Seite 1 von 2', 400, 800, 8)];
    const inOrder = read(glyphs);
    expect(read(scramble(glyphs))).toEqual(inOrder);
    expect(read([...glyphs].reverse())).toEqual(inOrder);
    expect(inOrder.map((w) => w.text)).toEqual([...EXPECTED, 'Total', '1.234,56', 'EUR', 'Seite', '1', 'von', '2']);
  });

  it('joins a word cut into runs (font switches, kerning pairs) but never across a space', () => {
    const cut = [
      item('Rech', 60, 100),
      item('nung', 60 + advance('Rech', 10) - 0.3, 100),
      item('1.234', 300, 100),
      item(',56', 300 + advance('1.234', 10), 100),
    ];
    expect(texts(cut)).toEqual(['Rechnung', '1.234,56']);
    expect(texts(scramble(cut))).toEqual(['Rechnung', '1.234,56']);
    // A right-aligned amount written as its own run one space after its label stays a word of its own.
    expect(texts([item('Total:', 60, 100), item('99,00', 60 + advance('Total: ', 10), 100)])).toEqual(['Total:', '99,00']);
  });

  it('reads a letter-spaced heading as words, with the wider gaps between them as spaces', () => {
    // Character spacing as pdf.js reports it: one item of single letters with fake spaces, then the next word.
    const head = 'R E C H N U N G';
    const tracked = [item(head, 60, 60, 16, advance(head, 16, -0.1)), item('N R', 60 + advance(head, 16, -0.1) + 0.7 * 16, 60, 16, advance('N R', 16, -0.1))];
    expect(texts(tracked)).toEqual(['RECHNUNG', 'NR']);
    // Glyphs placed one by one with tracking: one item per letter, word gaps wider than letter gaps.
    const spaced = [...'FACTURE'].map((c, i) => item(c, 60 + i * 14, 60, 16, 10));
    spaced.push(...[...'NO'].map((c, i) => item(c, 60 + 7 * 14 + 12 + i * 14, 60, 16, 10)));
    expect(texts(spaced)).toEqual(['FACTURE', 'NO']);
  });

  it('leaves single characters among ordinary words alone', () => {
    expect(texts([item('Eau gazeuse 6 x 1 L', 60, 100)])).toEqual(['Eau', 'gazeuse', '6', 'x', '1', 'L']);
    // The same written word by word, out of order: still ordinary words (they run on from "gazeuse" at its spacing).
    expect(texts(scramble(pieces('Eau gazeuse 6 x 1 L', 60, 100, /\S+/g)))).toEqual(['Eau', 'gazeuse', '6', 'x', '1', 'L']);
    // Three letters are not enough evidence of letter spacing.
    expect(texts([item('A B C', 60, 100)])).toEqual(['A', 'B', 'C']);
  });

  it('keeps mixed sizes and a superscript on their line, and their boxes within its band', () => {
    const words = read([
      item('Gesamt', 60, 300, 7),
      item('1.234,56', 200, 300, 22),
      item('Netto', 60, 270, 12),
      item('1', 60 + advance('Netto', 12), 264.5, 7),
      item('100,00', 200, 270, 12),
    ]);
    expect(words.map((w) => w.text)).toEqual(['Netto', '1', '100,00', 'Gesamt', '1.234,56']);
    const by = new Map(words.map((w) => [w.text, w]));
    const centre = (w: Word) => w.y + w.height / 2;
    // Within half the smaller height of each other: a grouping of words into lines by box keeps them together.
    expect(Math.abs(centre(by.get('1')!) - centre(by.get('Netto')!))).toBeLessThan(0.5 * Math.min(by.get('1')!.height, by.get('Netto')!.height));
    expect(Math.abs(centre(by.get('Gesamt')!) - centre(by.get('1.234,56')!))).toBeLessThan(0.5 * by.get('Gesamt')!.height);
  });

  it('keeps rotated text (a vertical margin note) out of the lines, unless most of the page runs that way', () => {
    const note: Item = { ...item('Amtsgericht Köln HRB 12345', 20, 600, 7), transform: [0, 7, -7, 0, 20, 200] };
    const page = [item('Rechnung 2024-17 vom 05.06.2024', 60, 80), item('Total 5,00', 60, 100), note, item('Danke', 60, 120)];
    expect(texts(page)).toEqual(['Rechnung', '2024-17', 'vom', '05.06.2024', 'Total', '5,00', 'Danke']);
    // A page drawn turned a quarter (read bottom to top, so its next line lies to the right): read along its direction.
    const turned = ['Rechnung 17', 'Total 5,00'].map((s, i): Item => ({ ...item(s, 0, 0, 10), transform: [0, 10, -10, 0, 300 + 20 * i, 100] }));
    expect(texts(turned)).toEqual(['Rechnung', '17', 'Total', '5,00']);
  });

  it('stays near linear on a page of 19,200 glyphs placed one by one', () => {
    const glyphs: Item[] = [];
    for (let l = 0; l < 120; l++)
      for (let g = 0; g < 160; g++) glyphs.push(item(String.fromCharCode(97 + ((l * 7 + g) % 26)), 20 + g * 3.4 + Math.floor(g / 6) * 2, 20 + l * 6.5, 6, 3.3));
    const t0 = performance.now();
    expect(read(glyphs)).toHaveLength(120 * 27);
    // Measured 0.2–0.45 s; the first version, quadratic in the runs of a page, took 1.8 s.
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('reads text drawn twice over itself (shadow, faux bold) once', () => {
    expect(texts([item('Rechnung', 60, 100), item('Rechnung', 60.3, 100), item('17', 120, 100)])).toEqual(['Rechnung', '17']);
  });
});
