import { describe, expect, it } from 'vitest';
import { detectLanguages, LANGUAGES } from '../../../src/extraction/lang/index.ts';
import { columnMatcher, fold, labelMatcher } from '../../../src/extraction/lang/vocab.ts';

const labels = (s: string) =>
  labelMatcher()
    .find(s)
    .map((h) => [h.field, s.slice(h.start, h.end)]);

describe('language data', () => {
  it('covers seven languages with twelve months each, no month name meaning two months', () => {
    expect(LANGUAGES.map((l) => l.code)).toEqual(['en', 'de', 'fr', 'es', 'it', 'nl', 'pt']);
    const month = new Map<string, number>();
    for (const l of LANGUAGES) {
      expect(l.months).toHaveLength(12);
      l.months.forEach((names, i) => {
        for (const n of names.map(fold)) {
          expect([undefined, i + 1], `${l.code} ${n}`).toContain(month.get(n));
          month.set(n, i + 1);
        }
      });
    }
  });

  it('folds case and accents without moving offsets', () => {
    expect(fold('Fällig AM Échéance')).toBe('fallig am echeance');
    expect(fold('Fällig').length).toBe('Fällig'.length);
  });
});

describe('label matcher', () => {
  it('takes the longest label at a position and says which field it labels', () => {
    expect(labels('Total HT   100,00')).toEqual([['subtotal', 'Total HT']]);
    expect(labels('Total   120,00')).toEqual([['total', 'Total']]);
    expect(labels('Gesamtbetrag   59,50 EUR')).toEqual([['total', 'Gesamtbetrag']]);
    expect(labels('USt. 19%   9,50')).toEqual([['tax', 'USt.']]);
    expect(labels('Factuurnummer: 123')).toEqual([['invoiceNumber', 'Factuurnummer']]);
    expect(labels('Rechnung Nr. 2018-117 vom 05.06.2018')).toEqual([
      ['invoiceNumber', 'Rechnung Nr.'],
      ['invoiceDate', 'vom'],
    ]);
  });

  it('never matches inside a word', () => {
    expect(labels('Lieferdatum 05.06.2018')).toEqual([['deliveryDate', 'Lieferdatum']]);
    expect(labels('Subtotale')).toEqual([['subtotal', 'Subtotale']]);
    expect(labels('Bestandsrechnung')).toEqual([]);
  });

  it('finds a label OCR glued to the word before it, where a capital starts it inside the word', () => {
    const columns = (s: string) =>
      columnMatcher()
        .find(s)
        .map((h) => [h.field, s.slice(h.start, h.end)]);
    expect(columns('LineAmount')).toEqual([['amount', 'Amount']]);
    expect(labels('KundeRechnungsdatum 05.06.2018')).toEqual([['invoiceDate', 'Rechnungsdatum']]);
    // Not where a word merely holds the letters in small type.
    expect(columns('Paramount')).toEqual([]);
  });
});

describe('language detection', () => {
  it.each([
    ['Rechnung Nr. 5 vom 05.06.2018. Bitte zahlen Sie den Betrag innerhalb von 14 Tagen ohne Abzug.', 'de'],
    ['Facture n° 12 du 5 juin 2018. Montant total TTC à payer par virement.', 'fr'],
    ['Factuur 12. Wij verzoeken u het bedrag binnen 14 dagen te betalen onder vermelding van het factuurnummer.', 'nl'],
    ['Factura nº 12. Fecha de vencimiento. Base imponible, IVA y total de la factura.', 'es'],
    ['Fattura n. 12 del 5 giugno 2018. Totale imponibile, IVA e totale della fattura.', 'it'],
    ['Fatura n.º 12. Data de vencimento. Obrigado pela sua preferência. Total a pagar com IVA.', 'pt'],
    ['Invoice 12. Please pay the amount due within 30 days. Thank you for your business.', 'en'],
  ])('%s → %s', (text, lang) => expect(detectLanguages(text).langs[0]).toBe(lang));
});
