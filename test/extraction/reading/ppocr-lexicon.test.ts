// Reading PP-OCR output on a Latin page: the decoder picks only Latin classes, and a word the model was unsure of is
// read as the lexicon word its second guesses spell.

import { describe, expect, it } from 'vitest';
import { englishLexicon, readWithLexicon } from '../../../src/extraction/ppocr/lexicon.ts';
import { ctcDecode, latinClasses } from '../../../src/extraction/ppocr/recognize.ts';

/** Letters read with certainty, except those given as [reading, probability, alternatives]. */
const letters = (word: string, doubts: Record<number, [number, [string, number][]]> = {}) =>
  [...word].map((ch, i) => ({ ch, prob: doubts[i]?.[0] ?? 0.99, alts: (doubts[i]?.[1] ?? []).map(([a, p]) => ({ ch: a, p })) }));

describe('lexicon reading of uncertain letters', () => {
  const lexicon = englishLexicon();

  it('takes the word the alternatives spell when the reading is no word', () => {
    expect(readWithLexicon(letters('Tatel', { 1: [0.6, [['o', 0.3]]], 3: [0.5, [['a', 0.4]]] }), lexicon)).toBe('Total');
    expect(readWithLexicon(letters('INVQICE', { 3: [0.55, [['O', 0.4]]] }), lexicon)).toBe('INVOICE');
  });

  it('prefers the more common word when the model finds two spellings equally likely', () => {
    // "TIMES" (among the most common words) over "TIRES" at the same probability.
    expect(
      readWithLexicon(
        letters('TIHES', {
          2: [
            0.4,
            [
              ['R', 0.1],
              ['M', 0.1],
            ],
          ],
        }),
        lexicon,
      ),
    ).toBe('TIMES');
  });

  it('keeps words, names the model was sure of, numbers and borders as read', () => {
    expect(readWithLexicon(letters('TOTAL', { 1: [0.5, [['A', 0.4]]] }), lexicon)).toBe('TOTAL');
    // A name the lexicon does not know, every letter read with certainty.
    expect(readWithLexicon(letters('KEDAI'), lexicon)).toBe('KEDAI');
    // An alternative the model barely considered is no reading.
    expect(readWithLexicon(letters('Tatel', { 1: [0.7, [['o', 0.01]]], 3: [0.7, [['a', 0.01]]] }), lexicon)).toBe('Tatel');
    expect(readWithLexicon(letters('AAAA', { 1: [0.5, [['N', 0.4]]] }), lexicon)).toBe('AAAA');
    expect(readWithLexicon(letters('12S0', { 2: [0.5, [['5', 0.4]]] }), lexicon)).toBe('12S0');
  });
});

describe('Latin classes', () => {
  it('decodes the best Latin letter where a Chinese character or a symbol scored higher', () => {
    const dictionary = ['A', '中', 'O', '★', ' '];
    const allowed = latinClasses(dictionary);
    expect([...allowed]).toEqual([1, 1, 0, 1, 0, 1]);
    // Classes: blank, A, 中, O, ★, space. Step 0: 中 0.5, O 0.3; step 1: blank; step 2: ★ 0.6, A 0.3.
    const rows = [
      [0.1, 0.05, 0.5, 0.3, 0.05, 0],
      [0.9, 0.02, 0.02, 0.02, 0.02, 0.02],
      [0.05, 0.3, 0.02, 0.03, 0.6, 0],
    ];
    const decode = (a?: Uint8Array) => ctcDecode(new Float32Array(rows.flat()), 0, rows.length, 6, dictionary, a).map((c) => c.ch);
    expect(decode()).toEqual(['中', '★']);
    expect(decode(allowed)).toEqual(['O', 'A']);
    expect(ctcDecode(new Float32Array(rows.flat()), 0, rows.length, 6, dictionary, allowed)[0]!.alts?.map((a) => a.ch)).toEqual(['A']);
  });
});
