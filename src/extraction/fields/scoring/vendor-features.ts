// Every run that may name the issuer (seller.ts `sellerCandidates`) as a candidate, with what tells the issuer's name
// from the others when the labels are unknown: the rules' evidence (legal form, letterhead, sender line, seller label,
// the VAT id below, a matching web domain, the buyer's block), the words before it and above it by concept (a buyer
// or a seller label, a director, a bank's account holder, a copyright line), its shape and where it sits.
import type { InvoiceDoc } from '../doc.ts';
import { sellerCandidates, type SellerCandidate } from '../seller.ts';
import { type Concept, conceptsOf } from './concepts.ts';
import { keyTextOf, placement } from './key-text.ts';

const WHY = [
  'legal form',
  'letterhead',
  'upper page',
  'large type',
  'sender line',
  'repeated',
  'footer name',
  'seller label',
  'tax id below',
  'domain',
  'buyer block',
  'buyer name',
  'single word',
  'low OCR',
] as const;
const KEY_CONCEPTS: Concept[] = [
  'seller',
  'buyer',
  'bank',
  'register',
  'director',
  'rights',
  'contact',
  'taxId',
  'delivery',
  'customer',
  'invoice',
  'article',
  'total',
];

export const VENDOR_FEATURES: string[] = [
  'rule_score',
  'rule_top',
  ...WHY.map((w) => `why_${w.replace(/ /g, '_')}`),
  ...KEY_CONCEPTS.map((c) => `left_${c}`),
  ...KEY_CONCEPTS.map((c) => `above_${c}`),
  ...KEY_CONCEPTS.map((c) => `line_${c}`),
  'left_empty',
  'name_label_words',
  'all_caps',
  'words_1',
  'words_2_3',
  'words_4_plus',
  'has_digit',
  'long',
  'times_named',
  'page_first',
  'y_rel',
  'x_rel',
  'height_rel',
];

/** The candidates (best rule score first) and one row each (VENDOR_FEATURES order). */
export function vendorFeatures(doc: InvoiceDoc): { cands: SellerCandidate[]; rows: number[][] } {
  const cands = sellerCandidates(doc);
  const top = cands[0]?.score ?? 0;
  const named = new Map<string, number>();
  for (const c of cands) named.set(c.name.toLowerCase(), (named.get(c.name.toLowerCase()) ?? 0) + 1);
  const rows = cands.map((c) => {
    const key = keyTextOf(doc, c.line, c.at, c.name.length);
    // What the run held before the name ("Sold by:", "Kontoinhaber:"), and the rest of its line.
    const start = c.line.text.indexOf(c.name, c.at);
    const lead = start > c.at ? c.line.text.slice(c.at, start) : '';
    const left = conceptsOf(`${key.leftCell} ${key.inCell} ${lead}`);
    const above = conceptsOf(key.above);
    const line = conceptsOf(c.line.text);
    const inName = conceptsOf(c.name);
    const words = c.name.split(/\s+/).filter(Boolean).length;
    const f: Record<string, number> = {
      ...placement(doc, c),
      rule_score: Math.max(-10, Math.min(15, c.score)) / 5,
      rule_top: c.score === top ? 1 : 0,
      left_empty: `${key.leftCell}${key.inCell}${lead}`.trim() ? 0 : 1,
      // Label words kept in the name ("Account holder Brenner GmbH").
      name_label_words: (['seller', 'bank', 'director', 'buyer', 'customer'] as const).some((k) => inName.has(k)) ? 1 : 0,
      all_caps: /\p{Ll}/u.test(c.name) ? 0 : 1,
      words_1: words === 1 ? 1 : 0,
      words_2_3: words >= 2 && words <= 3 ? 1 : 0,
      words_4_plus: words >= 4 ? 1 : 0,
      has_digit: /\d/.test(c.name) ? 1 : 0,
      long: Math.min(60, c.name.length) / 60,
      times_named: Math.min(3, (named.get(c.name.toLowerCase()) ?? 1) - 1),
    };
    for (const w of WHY) f[`why_${w.replace(/ /g, '_')}`] = c.why.includes(w) ? 1 : 0;
    for (const k of KEY_CONCEPTS) {
      f[`left_${k}`] = left.get(k) ?? 0;
      f[`above_${k}`] = above.get(k) ?? 0;
      f[`line_${k}`] = line.get(k) ?? 0;
    }
    return VENDOR_FEATURES.map((n) => f[n] ?? 0);
  });
  return { cands, rows };
}
