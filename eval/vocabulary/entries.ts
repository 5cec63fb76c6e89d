// The label phrases of the corpus's two vocabularies, as (field, language, phrase) rows for the overlap checker.

import { LANGUAGES, LOCALES } from '../../corpus/locales/index.ts';
import { KEY_LABELS, OTHER_LABELS, VOCABULARIES } from '../../corpus/vocabulary/index.ts';
import { labelFragments } from './overlap.ts';

export type Entry = { field: string; lang: string; phrase: string };

/** The issue-14 labels of the same fields (the locale files have no seller label and none of the new kinds). */
export function localeEntries(): Entry[] {
  const fields = [...KEY_LABELS, ...OTHER_LABELS];
  return LANGUAGES.flatMap((lang) =>
    Object.entries(LOCALES[lang].labels)
      .filter(([f]) => (fields as readonly string[]).includes(f))
      .flatMap(([field, ps]) => (ps as string[]).map((phrase): Entry => ({ field, lang, phrase })))
      .concat(titleWords(lang, LOCALES[lang].phrases.titleLine)),
  );
}

export function vocabularyEntries(part: 'key' | 'other'): Entry[] {
  return LANGUAGES.flatMap((lang) =>
    Object.entries(VOCABULARIES[lang][part])
      .flatMap(([field, ps]) => (ps as string[]).map((phrase): Entry => ({ field, lang, phrase })))
      .concat(part === 'key' ? titleWords(lang, VOCABULARIES[lang].titleLine) : []),
  );
}

/** The label words of title-line templates ("Nr.", "vom"), one row each. */
const titleWords = (lang: string, templates: readonly string[]): Entry[] =>
  [...new Set(templates.flatMap(labelFragments))].map((phrase) => ({ field: 'titleLine', lang, phrase }));
