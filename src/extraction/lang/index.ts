// The document's language, from its words: a score per language; close scores give several languages.
import { fold, LANGUAGES } from './vocab.ts';
import type { LangCode, LanguageData } from './types.ts';

export { LANGUAGES } from './vocab.ts';
export type { LangCode, LanguageData } from './types.ts';

/** Marker word → the languages that use it (a word shared by k languages counts 1/k for each). */
let markerIndex: Map<string, LangCode[]> | null = null;
function markers(): Map<string, LangCode[]> {
  if (markerIndex) return markerIndex;
  markerIndex = new Map();
  for (const l of LANGUAGES)
    for (const w of new Set([...l.markers, ...l.invoiceTitle].map(fold))) markerIndex.set(w, [...(markerIndex.get(w) ?? []), l.code]);
  return markerIndex;
}

export interface LanguageScores {
  /** Languages by descending share of the marker words found; empty when no marker word was found. */
  scores: { lang: LangCode; score: number }[];
  /** The languages within reach of the best (ties → several); English when nothing was recognised. */
  langs: LangCode[];
}

export function detectLanguages(text: string): LanguageScores {
  const idx = markers();
  const score = new Map<LangCode, number>();
  for (const w of fold(text).split(/[^\p{L}]+/u)) {
    const langs = w.length > 0 ? idx.get(w) : undefined;
    if (!langs) continue;
    for (const l of langs) score.set(l, (score.get(l) ?? 0) + 1 / langs.length);
  }
  const total = [...score.values()].reduce((a, b) => a + b, 0);
  const scores = [...score.entries()].map(([lang, s]) => ({ lang, score: s / Math.max(total, 1) })).sort((a, b) => b.score - a.score);
  const best = scores[0]?.score ?? 0;
  const langs = scores.filter((s) => s.score >= best * 0.8 && s.score > 0).map((s) => s.lang);
  return { scores, langs: langs.length ? langs : ['en'] };
}

export const languageData = (code: LangCode): LanguageData => LANGUAGES.find((l) => l.code === code)!;
