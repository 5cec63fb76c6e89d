import { describe, expect, it } from 'vitest';
import { readDoc } from '../../../src/extraction/fields/doc.ts';
import { pickSeller } from '../../../src/extraction/fields/seller.ts';
import { page } from './helpers.ts';

const seller = (lines: Parameters<typeof page>[0]) => pickSeller(readDoc([page(lines)])).name;

describe('seller', () => {
  it('takes the sender line over the address window, not the recipient, a country or a street', () => {
    expect(seller([
      'Elektro Schulz GmbH · Hauptstr. 1 · 12345 Berlin', 'Max Mustermann Handels GmbH', 'Beispielweg 2', '54321 Köln', 'Deutschland', '',
      'Rechnung Nr. 55', '', 'Pos   Bezeichnung   Menge   Betrag', '1   Kabel   2   20,00', '', 'Gesamtbetrag   20,00', '', '', '',
      'Elektro Schulz GmbH · Amtsgericht Berlin HRB 1234 · USt-IdNr. DE123456789',
    ])).toBe('Elektro Schulz GmbH');
  });

  it('takes the party under a seller label, not the one under "Bill to"', () => {
    expect(seller([
      'Bill To:                                   From:',
      'Northwind Traders Ltd                      Contoso Foods Ltd',
      '1 Main Street                              9 Dock Road',
      'Leeds LS1 4AP                              Hull HU1 2AA',
      'United Kingdom                             United Kingdom',
      '', 'Invoice No: 4411',
    ])).toBe('Contoso Foods Ltd');
  });

  it('skips a buyer block labelled in Italian and takes the letterhead', () => {
    expect(seller(['Spett.le', 'Ristorante Bella Vista S.r.l.', 'Via Verdi 3', '20121 Milano', '', 'Forniture Rossi', 'Via Po 9, 10123 Torino', 'P.IVA 01234567890', '', 'Fattura n. 9'])).toBe('Forniture Rossi');
  });

  it('keeps a name that starts like a label word or holds a street word ("De Tulp", "Catering") and reads S.L.U. whole', () => {
    expect(seller(['De Tulp B.V.', 'Kerkstraat 8, 1017 GL Amsterdam', '', 'Factuurnummer: 12'])).toBe('De Tulp B.V.');
    expect(seller(['INVOICE', '', 'Bill To:', 'Harbor Bistro Ltd', '1 Pier Road', '', 'Invoice No: 5', '', '', '', '', 'Castle Catering LLP · 14 Quay Street · London EC1A 1BB'])).toBe('Castle Catering LLP');
    expect(seller(['Consultores Ruiz S.L.U. · Calle Mayor 15 · 28013 Madrid', 'Bar El Puerto S.L.', 'Paseo Marítimo 4', '03001 Alicante', '', 'Factura nº 7'])).toBe('Consultores Ruiz S.L.U.');
  });
});
