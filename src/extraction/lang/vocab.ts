// Compiles the phrases of the language files into matchers that find labels in a line of text, and say which field,
// language and strength each label is.
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';
import type { ColumnVocabulary, LabelVocabulary, LangCode, LanguageData } from './types.ts';

export const LANGUAGES: readonly LanguageData[] = [en, de, fr, es, it, nl, pt];

/**
 * Lower-case, accents dropped, one character for one character: offsets in the folded text are offsets in the
 * original, so a match can be mapped back to word boxes.
 */
export function fold(text: string): string {
  let out = '';
  for (const ch of text) {
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    const c = base[0] ?? ' ';
    // Keep UTF-16 length equal (astral characters are two units).
    out += ch.length === 2 ? c + ' ' : c;
  }
  return out;
}

/** Letters and digits of folded text (accents are gone; a few letters have no base letter). */
const WORD_CHAR = '[a-z0-9ßøæœðþł]';
const LETTER = '[a-zßøæœðþł]';

/** Regex source of one phrase (see ./types.ts for the notation), without the boundary before it. */
export function phraseSource(phrase: string): string {
  const words = fold(phrase.replace(/^~/, '')).trim().split(/\s+/);
  // A dot inside a word is required ("p.o." is not "Po"); a final one is optional (below).
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, (c) => (c === '.' ? '\\.\\s?' : `\\${c}`));
  // A word written with a final dot ends there: "n." matches "N." and "N " but not the N of "Name".
  const word = (w: string) => (w.endsWith('.') ? `${esc(w.slice(0, -1))}(?:\\.|(?!${LETTER}))` : esc(w));
  // Between words: single spaces and punctuation, never a column gap (three spaces in a line's text).
  const body = words.map(word).join('(?:\\s?[\\-.:/])*\\s?');
  const last = words[words.length - 1]!.slice(-1);
  return /[a-zßøæœðþł]/.test(last) ? `${body}(?!${LETTER})` : body;
}

/** One regex for a list of phrases; each phrase is a capture group; a match never starts inside a word. */
export function phrasesRegex(phrases: string[], flags = 'g'): RegExp {
  return new RegExp(`(?<!${WORD_CHAR})(?:${phrases.map((p) => `(${phraseSource(p)})`).join('|')})`, flags);
}

export interface PhraseInfo<F extends string> {
  field: F;
  lang: LangCode;
  weak: boolean;
  phrase: string;
}

export interface Hit<F extends string> {
  field: F;
  /** The languages that use these words for this field. */
  langs: LangCode[];
  /** Generic in every language that uses it. */
  weak: boolean;
  /** Offsets in the line's text. */
  start: number;
  end: number;
}

/** Finds, left to right, the longest phrase at each position among all the given fields of all languages. */
export class PhraseMatcher<F extends string> {
  private readonly re: RegExp;
  private readonly keys: string[];
  /** Folded phrase → every field and language it labels. */
  private readonly byKey = new Map<string, { field: F; langs: LangCode[]; weak: boolean }[]>();

  constructor(entries: PhraseInfo<F>[]) {
    for (const e of entries) {
      const k = fold(e.phrase.replace(/^~/, '')).trim();
      const list = this.byKey.get(k) ?? [];
      const same = list.find((o) => o.field === e.field);
      if (same) {
        if (!same.langs.includes(e.lang)) same.langs.push(e.lang);
        same.weak &&= e.weak;
      } else list.push({ field: e.field, langs: [e.lang], weak: e.weak });
      this.byKey.set(k, list);
    }
    // Longest first: the alternation takes the first that matches, so "total ht" beats "total".
    this.keys = [...this.byKey.keys()].sort((a, b) => b.length - a.length);
    this.re = phrasesRegex(this.keys);
  }

  /** Every label in a text, left to right; words that label several fields (French "net à payer") give one hit each. */
  find(text: string): Hit<F>[] {
    const out: Hit<F>[] = [];
    for (const m of fold(text).matchAll(this.re)) {
      if (!m[0]) continue;
      const g = m.findIndex((v, i) => i > 0 && v !== undefined) - 1;
      const start = m.index;
      const end = start + m[0].replace(/[\s:]+$/, '').length;
      for (const info of this.byKey.get(this.keys[g]!)!) out.push({ ...info, start, end });
    }
    return out;
  }
}

const entriesOf = <F extends string>(pick: (l: LanguageData) => Partial<Record<F, string[]>>): PhraseInfo<F>[] =>
  LANGUAGES.flatMap((l) =>
    Object.entries(pick(l)).flatMap(([field, phrases]) =>
      (phrases as string[]).map((p) => ({ field: field as F, lang: l.code, weak: p.startsWith('~'), phrase: p })),
    ),
  );

export type LabelField = keyof LabelVocabulary | 'invoiceTitle';
export type ColumnKind = keyof ColumnVocabulary;

let labels: PhraseMatcher<LabelField> | null = null;
let columns: PhraseMatcher<ColumnKind> | null = null;

/** All field labels of all languages (plus the invoice titles, which may carry a number and a date). */
export function labelMatcher(): PhraseMatcher<LabelField> {
  labels ??= new PhraseMatcher<LabelField>([
    ...entriesOf<LabelField>((l) => l.labels),
    ...entriesOf<LabelField>((l) => ({ invoiceTitle: l.invoiceTitle })),
  ]);
  return labels;
}

/** All column headers of all languages. */
export function columnMatcher(): PhraseMatcher<ColumnKind> {
  columns ??= new PhraseMatcher<ColumnKind>(entriesOf<ColumnKind>((l) => l.columns));
  return columns;
}

/** One regex of every phrase in a list, for a yes/no test on folded text (legal forms, countries). */
export function anyPhrase(phrases: string[]): RegExp {
  return phrasesRegex([...new Set(phrases.map((p) => fold(p).trim()))].sort((a, b) => b.length - a.length), '');
}
