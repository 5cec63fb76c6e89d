// The invoice number: the token right of (or under) an invoice-number label or a title ("Rechnung Nr. 7 vom …"),
// never a value that an order, customer or tax-id label claims.
import type { LabelField } from '../lang/vocab.ts';
import { candidates, cells, merge, type FieldCandidate, type Found } from './candidates.ts';
import type { InvoiceDoc } from './doc.ts';

// An optional series prefix of capitals before the number (Portuguese "FT 2024/88", "INV 0042").
const TOKEN =
  /^[\s:#.\-–°º]*(?:(?:[nN][°ºoO]|[nN][rR]|[nN][uU][mM](?:[mM][eE][rR]|[bB][eE][rR])?)\.?\s*[:#.]?\s*)?((?:[A-Z]{1,4} (?=\d))?[A-Za-z0-9][A-Za-z0-9_\-/.]*)/;
const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;
const MONEY_LIKE = /^\d{1,3}(?:[.,]\d{3})*[.,]\d{2}$/;

/** The first token after a label, when it looks like a document number (has a digit, is no date or amount). */
export function numberToken(text: string): Found<string>[] {
  const m = text.match(TOKEN);
  if (!m) return [];
  const value = m[1]!.replace(/[.\-/]+$/, '');
  if (!/\d/.test(value) || DATE_LIKE.test(value) || MONEY_LIKE.test(value)) return [];
  if (/%$/.test(text.slice(m[0].length).trim().slice(0, 1))) return [];
  return [{ value, index: m.index! + m[0].length - m[1]!.length, length: value.length, plain: value.length < 2 }];
}

/**
 * An id as OCR may misread it, put back: in a run mostly of digits a letter O or l/I beside a digit is a digit
 * ("To08938" is T008938), and a 1 or 0 opening a run of capitals is a letter ("1NV-0042" is INV-0042).
 */
export function idAsPrinted(id: string): string {
  return id.replace(/[\p{L}\d]{3,}/gu, (run) => {
    const digits = run.replace(/\D/g, '').length;
    if (digits * 2 > run.length) return run.replace(/[oO](?=\d)|(?<=\d)[oO]/g, '0').replace(/[lI](?=\d)|(?<=\d)[lI]/g, '1');
    return run.replace(/^[10](?=\p{Lu}{2,}$)/u, (d) => (d === '1' ? 'I' : 'O'));
  });
}

/** A generic label opens a cell ("Nr.: 12") or closes one, its value in the next ("Affacturée N°   UC1_20"). */
const labelLike = (c: FieldCandidate<string>) =>
  cells(c.labelText).some(
    (x) => x.at === c.labelStart || (c.labelStart > x.at && /^[\s:.#]*$/.test(c.labelText.slice(c.labelStart, x.at + x.text.length).replace(/^\S+/, ''))),
  );

/** The generic label follows a title on its line ("Facture N° 12"). */
const titleBefore = (doc: InvoiceDoc, c: FieldCandidate<string>) =>
  doc.hits[c.line.index]!.some((h) => h.field === 'invoiceTitle' && h.end <= c.labelStart && c.labelStart - h.end <= 2);

const DISTRACTORS: LabelField[] = ['orderNumber', 'customerNumber', 'taxId', 'relatedInvoice'];

/** The invoice number (best candidate), or null. */
export function invoiceNumber(doc: InvoiceDoc): FieldCandidate<string> | null {
  return numberCandidates(doc)[0] ?? null;
}

/** Invoice-number candidates, best first (one per value, positive scores only). */
export function numberCandidates(doc: InvoiceDoc): FieldCandidate<string>[] {
  // A generic label ("Nr.", "n.º") counts only where a label stands: opening a cell, not inside "Rua Augusta, n.º 57".
  // "Item No." / "Part No." name an article, not the invoice: a generic "No." inside an item-number column word.
  const inSku = (c: FieldCandidate<string>) => doc.columnHits[c.line.index]!.some((h) => h.field === 'sku' && h.start <= c.labelStart && h.end > c.labelStart);
  // "N.  Codice  Descrizione  Qta …" heads an item table: its "N." labels the positions below it, not the invoice.
  const tableHead = (c: FieldCandidate<string>) => {
    if (c.via !== 'below') return false;
    const at = doc.lines.findLastIndex((l, i) => i < c.line.index && l.text === c.labelText);
    return at >= 0 && new Set(doc.columnHits[at]!.map((h) => h.field)).size >= 3;
  };
  const cands = candidates(doc, ['invoiceNumber', 'invoiceTitle'], numberToken).filter(
    (c) => (!c.weak || c.field !== 'invoiceNumber' || labelLike(c) || titleBefore(doc, c)) && !(c.weak && (inSku(c) || tableHead(c))),
  );
  const claimed = new Set(
    candidates(doc, DISTRACTORS, numberToken)
      .filter((c) => !c.weak)
      .map((c) => c.value),
  );
  const firstPage = doc.lines[0]?.page;
  for (const c of cands) {
    if (c.field === 'invoiceTitle') c.score *= 0.7;
    if (claimed.has(c.value)) c.score -= 2.5;
    if (c.line.page !== firstPage) c.score -= 0.5;
    else if (c.line.index < doc.lines.length * 0.5) c.score += 0.5;
  }
  return merge(cands).filter((c) => c.score > 0);
}
