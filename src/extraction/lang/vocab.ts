// Compiles the phrases of the language files into matchers that find labels in a line of text, and say which field,
// language and strength each label is.
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';
import { canonical, gluedStarts, trieRegex, wordStarts } from './phrase-regex.ts';
import type { ColumnVocabulary, LabelVocabulary, LangCode, LanguageData } from './types.ts';

export const LANGUAGES: readonly LanguageData[] = [en, de, fr, es, it, nl, pt];

/**
 * Lower-case, accents dropped, one character for one character: offsets in the folded text are offsets in the
 * original, so a match can be mapped back to word boxes.
 */
export function fold(text: string): string {
  // Plain ASCII folds by lower-casing (most lines); the rest character by character.
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) {
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    const c = base[0] ?? ' ';
    // Keep UTF-16 length equal (astral characters are two units).
    out += ch.length === 2 ? c + ' ' : c;
  }
  return out;
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
  /** The same phrases, tried where a glued word starts another inside it. */
  private readonly reInside: RegExp;
  private readonly memo = new Map<string, Hit<F>[]>();
  /** Canonical phrase → every field it labels, with the languages that use it. */
  private readonly byKey = new Map<string, { field: F; langs: LangCode[]; weak: boolean }[]>();

  constructor(entries: PhraseInfo<F>[]) {
    const phrases = new Set<string>();
    for (const e of entries) {
      const folded = fold(e.phrase.replace(/^~/, '')).trim();
      phrases.add(folded);
      const k = canonical(folded);
      const list = this.byKey.get(k) ?? [];
      const same = list.find((o) => o.field === e.field);
      if (same) {
        if (!same.langs.includes(e.lang)) same.langs.push(e.lang);
        same.weak &&= e.weak;
      } else list.push({ field: e.field, langs: [e.lang], weak: e.weak });
      this.byKey.set(k, list);
    }
    this.re = trieRegex([...phrases], 'y');
    this.reInside = trieRegex([...phrases], 'y', true);
  }

  /** Every label in a text, left to right; words that label several fields (French "net à payer") give one hit each. */
  find(text: string): Hit<F>[] {
    const cached = this.memo.get(text);
    if (cached) return cached;
    const out: Hit<F>[] = [];
    const folded = fold(text);
    let after = 0;
    // Tried only where a word starts (sticky regex), not at every character; and where OCR glued two words.
    const glued = new Set(gluedStarts(text));
    const starts = glued.size ? [...wordStarts(folded), ...glued].sort((a, b) => a - b) : wordStarts(folded);
    for (const at of starts) {
      if (at < after) continue;
      const re = glued.has(at) ? this.reInside : this.re;
      re.lastIndex = at;
      const m = re.exec(folded);
      if (!m?.[0]) continue;
      const end = at + m[0].replace(/[\s:]+$/, '').length;
      for (const info of this.byKey.get(canonical(m[0])) ?? []) out.push({ ...info, start: at, end });
      after = at + m[0].length;
    }
    // Lines repeat across the calls of one document (page headers, then the invoice): remember recent ones.
    if (this.memo.size > 4000) this.memo.clear();
    this.memo.set(text, out);
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
  return trieRegex(phrases.map((p) => fold(p).trim()), '');
}
