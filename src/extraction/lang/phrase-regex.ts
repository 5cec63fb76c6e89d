// One regex for thousands of phrases, built as a trie: at each position only the branches whose next character
// matches are tried, instead of every phrase in turn (a flat alternation of 2,000 phrases cost ~0.2 ms per line).
//
// Phrase notation (see ./types.ts): folded words separated by single spaces; a dot inside a word is required, a
// final dot optional; between words any single spaces and punctuation, never a column gap (three spaces).

/** Letters and digits of folded text (accents are gone; a few letters have no base letter). */
export const WORD_CHAR = '[a-z0-9ßøæœðþł]';
export const LETTER = '[a-zßøæœðþł]';
const SEP = '(?:\\s?[\\-.:/])*\\s?';
const DOT_END = `(?:\\.|(?!${LETTER}))`;
const isLetter = (c: string) => /[a-zßøæœðþł]/.test(c);

interface Node {
  next: Map<string, Node>;
  /** A phrase ends here; the guard keeps it from ending inside a word. */
  end: string | null;
}

/** The regex tokens of one folded phrase. */
function tokens(phrase: string): { tokens: string[]; guard: string } {
  const out: string[] = [];
  const s = phrase.trim().replace(/\s+/g, ' ');
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const wordEnd = i + 1 === s.length || s[i + 1] === ' ';
    if (c === ' ') out.push(SEP);
    else if (c === '.') out.push(wordEnd ? DOT_END : '\\.\\s?');
    else out.push(c.replace(/[*+?^${}()|[\]\\/.-]/g, '\\$&'));
  }
  const last = s[s.length - 1] ?? '';
  return { tokens: out, guard: isLetter(last) ? `(?!${LETTER})` : '' };
}

const depth = (node: Node): number => Math.max(0, ...[...node.next.values()].map((c) => 1 + depth(c)));

function source(node: Node): string {
  // Longer phrases first: the deepest children, then ending here ("s.l.u." before "s.l.").
  const alts = [...node.next].sort((a, b) => depth(b[1]) - depth(a[1])).map(([t, child]) => t + source(child));
  if (node.end !== null) alts.push(node.end);
  return alts.length === 1 ? alts[0]! : `(?:${alts.join('|')})`;
}

/**
 * A regex matching any of the phrases (folded), preferring the longest; never starting inside a word unless `inside`
 * (for starts the caller chose, such as a capital inside a word OCR glued together).
 */
export function trieRegex(phrases: string[], flags = 'g', inside = false): RegExp {
  const root: Node = { next: new Map(), end: null };
  for (const p of phrases) {
    const { tokens: ts, guard } = tokens(p);
    if (!ts.length) continue;
    let node = root;
    for (const t of ts) {
      let child = node.next.get(t);
      if (!child) node.next.set(t, (child = { next: new Map(), end: null }));
      node = child;
    }
    // Two spellings ending on the same node: the looser guard is enough.
    node.end = node.end === null ? guard : node.end.length <= guard.length ? node.end : guard;
  }
  return new RegExp(`${inside ? '' : `(?<!${WORD_CHAR})`}${source(root)}`, flags);
}

/** Where a phrase may start: the first character of each word or symbol run (not inside a word). */
export function wordStarts(folded: string): number[] {
  const out: number[] = [];
  for (const m of folded.matchAll(/(?<![a-z0-9ßøæœðþł])[^\s]/g)) out.push(m.index);
  return out;
}

/**
 * Where a word OCR glued together ("LineAmount", "UnitPrice") starts another: a capital after a small letter.
 * Offsets of `text`, which are those of its folded form (see fold).
 */
export function gluedStarts(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(?<=\p{Ll})\p{Lu}(?=\p{Ll})/gu)) out.push(m.index);
  return out;
}

/** What identifies a phrase whatever its separators: "Rechnungs-Nr." and "rechnungs nr" are "rechnungsnr". */
export const canonical = (s: string) => s.replace(/[\s.\-:/]+/g, '');
