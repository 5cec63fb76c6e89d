// The words of a search and where a result's text holds them: what decides whether a result is relevant (besides
// its meaning) and what a page highlights. Words compare without case or accents, and as forms of one word: two
// words match when they share a prefix of at least 4 letters that covers all but at most one letter of the shorter
// ("napkins" ~ "napkin", "supplies" ~ "supply", "bill" ~ "billing", "electricity" ~ "electric"; not "beer" ~ "beef").

const WORD = /[\p{L}\p{N}]+/gu;
/** Words every document of a kind carries, and words too common to tell anything. */
const STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'from',
  'of',
  'an',
  'in',
  'on',
  'to',
  'at',
  'by',
  'or',
  'invoice',
  'invoices',
  'receipt',
  'receipts',
  'vendor',
  'vendors',
]);

/** Only ASCII: nothing to decompose (most words; NFD and the mark filter were most of a search's result mapping). */
const ASCII = /^[\x00-\x7f]*$/;
const fold = (word: string) => (ASCII.test(word) ? word : word.normalize('NFD').replace(/\p{M}/gu, '')).toLowerCase();

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return common >= 4 && common >= Math.min(a.length, b.length) - 1;
}

/** The distinct words of a query that can match (2+ letters, not a stopword), folded. */
export function queryTerms(query: string): string[] {
  const words = (query.match(WORD) ?? []).map(fold).filter((w) => w.length >= 2 && !STOPWORDS.has(w));
  return [...new Set(words)];
}

/** The terms the text holds. */
export function matchedTerms(text: string, terms: readonly string[]): string[] {
  const words = [...new Set((text.match(WORD) ?? []).map(fold))];
  return terms.filter((t) => words.some((w) => sameWord(t, w)));
}

/** Where the text holds one of the terms: start and length of each matching word (UTF-16 offsets), in order. */
export function highlights(text: string, terms: readonly string[]): Array<{ start: number; length: number }> {
  if (terms.length === 0) return [];
  const out: Array<{ start: number; length: number }> = [];
  for (const m of text.matchAll(WORD)) {
    const w = fold(m[0]);
    if (terms.some((t) => sameWord(t, w))) out.push({ start: m.index, length: m[0].length });
  }
  return out;
}
