// The corpus's held-apart labels (issue 48) must stay unseen: none of its key-field phrases in the engine's phrase
// lists, and the generator never reading those lists. When the engine learns one of these phrases this fails, and
// the phrase must leave the held-apart vocabulary (it is no longer a test of unseen labels).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../corpus/locales/index.ts';
import { KEY_LABELS, OTHER_LABELS, VOCABULARIES } from '../../corpus/vocabulary/index.ts';
import { localeEntries } from '../../eval/vocabulary/entries.ts';
import { engineListsWith, keyLabelsHeldApart, labelFragments, labelKey, measureOverlap } from '../../eval/vocabulary/overlap.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Every file a module imports, followed through relative imports. */
function importGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const m of readFileSync(entry, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g))
    importGraph(path.resolve(path.dirname(entry), m[1]!), seen);
  return seen;
}

describe('held-apart label vocabulary', () => {
  it('normalises labels as the engine matches them: case, accents, spaces and punctuation aside', () => {
    expect(labelKey('Rechnungs-Nr.')).toBe(labelKey('rechnungs nr'));
    expect(labelKey('N° de facture')).toBe(labelKey('Nº de Factura'.replace('Factura', 'facture')));
    expect(labelKey('Échéance')).toBe(labelKey('ECHEANCE'));
    expect(labelKey('Invoice #')).not.toBe(labelKey('Invoice'));
  });

  it('holds no key-field phrase the engine was given, in any of its languages', () => {
    const seen = LANGUAGES.flatMap((lang) =>
      [...KEY_LABELS.map((f) => [f, VOCABULARIES[lang].key[f]] as const), ['titleLine', VOCABULARIES[lang].titleLine.flatMap(labelFragments)] as const].flatMap(
        ([field, phrases]) =>
          phrases.flatMap((phrase) => {
            const lists = engineListsWith(phrase);
            return lists.length ? [`${lang} ${field} "${phrase}": ${lists.join(', ')}`] : [];
          }),
      ),
    );
    expect(seen).toEqual([]);
    // The split the eval makes: a title line whose words are the engine's is not held apart.
    expect(keyLabelsHeldApart({ total: 'Grand total amount', titleLine: '{invoice} {number} · {date}' })).toBe(true);
    expect(keyLabelsHeldApart({ total: 'Grand total amount', titleLine: '{invoice} Nr. {number} vom {date}' })).toBe(false);
  });

  it('gives every field several phrases, and never the same words to two key fields of a language', () => {
    for (const lang of LANGUAGES) {
      const v = VOCABULARIES[lang];
      for (const f of KEY_LABELS) expect(v.key[f].length, `${lang} ${f}`).toBeGreaterThanOrEqual(5);
      for (const f of OTHER_LABELS) expect(v.other[f].length, `${lang} ${f}`).toBeGreaterThanOrEqual(3);
      const owner = new Map<string, string>();
      for (const f of KEY_LABELS)
        for (const p of v.key[f]) {
          const k = labelKey(p);
          expect(owner.get(k) ?? f, `${lang} "${p}" labels ${owner.get(k)} and ${f}`).toBe(f);
          owner.set(k, f);
        }
    }
  });

  it('measures the issue-14 vocabulary as mostly the engine’s own (the checker sees overlap where there is some)', () => {
    const key = measureOverlap(localeEntries()).filter((r) => (KEY_LABELS as readonly string[]).includes(r.field));
    const share = key.reduce((s, r) => s + r.inEngineLists, 0) / key.reduce((s, r) => s + r.phrases, 0);
    expect(share).toBeGreaterThan(0.9);
  });

  it('is never read from the engine: the generator imports nothing of src/extraction/lang', () => {
    const files = [...importGraph(path.join(root, 'corpus/generate.ts'))].map((f) => path.relative(root, f));
    expect(files).toContain('corpus/vocabulary/index.ts');
    expect(files.filter((f) => f.startsWith('src/extraction/lang') || f.startsWith('src/extraction/fields'))).toEqual([]);
  });
});
