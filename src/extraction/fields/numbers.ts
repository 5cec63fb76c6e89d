// Invoice / document numbers next to their labels (EN/FR/DE), skipping order, customer and related-invoice numbers.
import { labelled, rank, type Candidate, type Label } from './labels.ts';
import type { Line } from './layout.ts';

const L = (re: RegExp, weight: number): Label => ({ re, weight });

export const NUMBER_LABELS: Label[] = [
  L(/\b(invoice\s*(?:no\.?|number|num|nr\.?|#|id)|\w*factur[ée]e?\s*(?:n[°ºo]\.?|num[ée]ro|#)|(?:n[°º]|num[ée]ro)\s*(?:de\s+)?facture|rechnungs-?\s?(?:nummer|nr\.?)|rechnung\s*(?:nr\.?|nummer|#)|belegnummer|beleg-nr\.?|bill\s*(?:no\.?|#)|receipt\s*(?:no\.?|#)|inv\.?\s*(?:no\.?|#))\s*[:.]?/i, 3),
  L(/^\s*(invoice|facture|rechnung|tax invoice)\b\s*[:#]?/i, 2),
  L(/\b(document\s*(?:no\.?|number)|doc\.?\s*no\.?|n[°º])\s*[:.]?/i, 0.8),
];
const NUMBER_EXCLUDE = /associ|related|original|referenz|r[ée]f[ée]rence|\b(order|commande|bestell|auftrag|client|customer|kunden|debitor|contrat|contract|tva|vat|siren|siret|ust|tax|leasing|account|konto)/i;

const NUMBER_TOKEN = /^[#:.\s]*([A-Z0-9][A-Z0-9_\-/.]*\d[A-Z0-9_\-/.]*|\d[A-Z0-9_\-/.]*)/i;

export function invoiceNumber(lines: Line[]): Candidate<string> | null {
  const find = (text: string) => {
    const m = text.match(NUMBER_TOKEN);
    if (!m) return [];
    const value = m[1]!.replace(/[.\-/]+$/, '');
    if (/^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/.test(value) || value.length < 3) return [];
    return [{ value, index: m.index! + m[0].length - m[1]!.length, length: m[1]!.length }];
  };
  const cands = labelled(lines, NUMBER_LABELS, find).filter((c) => {
    const before = c.line.text.slice(0, c.line.text.indexOf(c.value)).split(/\s{3,}/).filter((p) => p.trim());
    return !NUMBER_EXCLUDE.test(before[before.length - 1] ?? '');
  });
  for (const c of cands) c.score += c.line.page === lines[0]?.page ? (c.line.index < lines.length * 0.4 ? 1 : 0) : -1;
  return rank(cands)[0] ?? null;
}

