import { describe, expect, it } from 'vitest';
import { readDoc } from '../../../src/extraction/fields/doc.ts';
import { pickSeller } from '../../../src/extraction/fields/seller.ts';
import { page } from './helpers.ts';

const seller = (lines: Parameters<typeof page>[0]) => pickSeller(readDoc([page(lines)])).name;

describe('seller', () => {
  it('takes the sender line over the address window, not the recipient, a country or a street', () => {
    expect(
      seller([
        'Elektro Schulz GmbH · Hauptstr. 1 · 12345 Berlin',
        'Max Mustermann Handels GmbH',
        'Beispielweg 2',
        '54321 Köln',
        'Deutschland',
        '',
        'Rechnung Nr. 55',
        '',
        'Pos   Bezeichnung   Menge   Betrag',
        '1   Kabel   2   20,00',
        '',
        'Gesamtbetrag   20,00',
        '',
        '',
        '',
        'Elektro Schulz GmbH · Amtsgericht Berlin HRB 1234 · USt-IdNr. DE123456789',
      ]),
    ).toBe('Elektro Schulz GmbH');
  });

  it('takes the party under a seller label, not the one under "Bill to"', () => {
    expect(
      seller([
        'Bill To:                                   From:',
        'Northwind Traders Ltd                      Contoso Foods Ltd',
        '1 Main Street                              9 Dock Road',
        'Leeds LS1 4AP                              Hull HU1 2AA',
        'United Kingdom                             United Kingdom',
        '',
        'Invoice No: 4411',
      ]),
    ).toBe('Contoso Foods Ltd');
  });

  it('skips a buyer block labelled in Italian and takes the letterhead', () => {
    expect(
      seller([
        'Spett.le',
        'Ristorante Bella Vista S.r.l.',
        'Via Verdi 3',
        '20121 Milano',
        '',
        'Forniture Rossi',
        'Via Po 9, 10123 Torino',
        'P.IVA 01234567890',
        '',
        'Fattura n. 9',
      ]),
    ).toBe('Forniture Rossi');
  });

  it('keeps a name that starts like a label word or holds a street word ("De Tulp", "Catering") and reads S.L.U. whole', () => {
    expect(seller(['De Tulp B.V.', 'Kerkstraat 8, 1017 GL Amsterdam', '', 'Factuurnummer: 12'])).toBe('De Tulp B.V.');
    expect(
      seller([
        'INVOICE',
        '',
        'Bill To:',
        'Harbor Bistro Ltd',
        '1 Pier Road',
        '',
        'Invoice No: 5',
        '',
        '',
        '',
        '',
        'Castle Catering LLP · 14 Quay Street · London EC1A 1BB',
      ]),
    ).toBe('Castle Catering LLP');
    expect(
      seller(['Consultores Ruiz S.L.U. · Calle Mayor 15 · 28013 Madrid', 'Bar El Puerto S.L.', 'Paseo Marítimo 4', '03001 Alicante', '', 'Factura nº 7']),
    ).toBe('Consultores Ruiz S.L.U.');
  });

  it('prefers the registered name (with its legal form) to the same name without it, and mixed case to capitals', () => {
    expect(
      seller([
        'Oakridge Catering',
        ['Oakridge Catering LLC', 300],
        ['2611 Elm Avenue', 300],
        ['Boston, MA 02110', 300],
        '',
        'INVOICE',
        'Customer',
        'Bennett & Sons',
        '',
        'Total   $100.00',
      ]),
    ).toBe('Oakridge Catering LLC');
    expect(
      seller([
        'GROSSHANDEL HOFFMANN KG',
        'Gewerbepark 35 · 65581 Mainz',
        '',
        'Rechnung Nr. 12',
        '',
        '',
        '',
        'Großhandel Hoffmann KG · Amtsgericht Mainz HRA 1 · USt-IdNr. DE123456789',
      ]),
    ).toBe('Großhandel Hoffmann KG');
  });

  it('reads a unit after a quantity or a lower-case short word as no legal form: an item row is no issuer', () => {
    expect(
      seller([
        'Transport Eindhoven Holding B.V.',
        'Steenweg 203 · 2262 CU Eindhoven',
        '',
        'Factuur A-342',
        '',
        '6   Tarwebloem, zak 25 kg   5 verp.   20,00   100,00',
      ]),
    ).toBe('Transport Eindhoven Holding B.V.');
    expect(seller(['DOYLE BEVERAGES TEORANTA', '66 Harbor Boulevard', 'Dublin 2', 'VAT Invoice', 'Basmati rice 10 kg', '1 pk x 23.62   23.62 A'])).toBe(
      'DOYLE BEVERAGES TEORANTA',
    );
  });

  it('joins a legal form set alone under a centred name', () => {
    expect(
      seller([['PRODUTOS ALIMENTARES DO RIBEIRA', 20], ['S.A', 104], ['Rua de Santa Catarina, 297', 41], ['7317-336 Viseu', 80], 'Fatura n.º: FS 2024/414']),
    ).toBe('PRODUTOS ALIMENTARES DO RIBEIRA S.A');
  });

  it('never takes a name the buyer block holds, wherever else it is printed', () => {
    const two = (l: string, r: string) => `${l.padEnd(44)}${r}`;
    expect(
      seller([
        two('DE MOLEN WASSERIJ V.O.F.', 'Groenten & Fruit Holding B.V.'),
        two('Nieuwe Gracht 134', 'Kapelstraat 250'),
        two('4056 GV Groningen', '5495 RH Eindhoven'),
        two('BTW-nummer NL977109261B54', 'Leveradres'),
        two('', 'Groenten & Fruit Holding B.V.'),
        two('', 'Hoofdstraat 136'),
        two('', '5495 RH Eindhoven'),
        '',
        'Verkoopfactuur',
      ]),
    ).toBe('DE MOLEN WASSERIJ V.O.F.');
  });

  it('keeps street and label words inside a registered name, and reads a small sender line without a legal form', () => {
    const small = (lines: string[]) => {
      const p = page(lines);
      for (const w of p.words) if (w.y === 40 + 2 * 14) w.height = 7;
      return pickSeller(readDoc([p])).name;
    };
    expect(
      small([
        'FEINKOST ST. GALLEN GENOSSENSCHAFT',
        'Am Marktplatz 88',
        'Feinkost Meier · Am Marktplatz 88 · CH-2039 St. Gallen',
        'Brauhaus Kronen',
        'Gartenweg 114',
        'CH-8462 Luzern',
        'UID CHE-619.348.397 MWST',
        '',
        'Rechnung Nr. 4',
      ]),
    ).toBe('FEINKOST ST. GALLEN GENOSSENSCHAFT');
  });
});
