import { describe, expect, test } from 'vitest';
import { highlights, matchedTerms, queryTerms } from '../../src/modules/search/search-terms.ts';

describe('search terms', () => {
  test('query words: folded, distinct, without stopwords and the kinds of record', () => {
    expect(queryTerms('Café  napkins and the NAPKINS invoice')).toEqual(['cafe', 'napkins']);
  });

  test('forms of one word match; words that only start alike do not', () => {
    expect(matchedTerms('Dinner napkin 2-ply. supply cost. Electric service, monthly billing period', queryTerms('napkins supplies bill electricity'))).toEqual(
      ['napkins', 'supplies', 'bill', 'electricity'],
    );
    expect(matchedTerms('Ground beef 80/20. meal kits. salami', queryTerms('beer meat salmon'))).toEqual([]);
  });

  test('highlights are the matching words of the text, with accents and case as printed', () => {
    const text = 'Crème fraîche, NAPKINS 2-ply; napkin rings';
    expect(highlights(text, queryTerms('creme napkins')).map((h) => text.slice(h.start, h.start + h.length))).toEqual(['Crème', 'NAPKINS', 'napkin']);
    expect(highlights(text, [])).toEqual([]);
  });
});
