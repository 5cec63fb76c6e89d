// Hand-written invoices in the seven languages, laid out as word boxes, with what must be read from them. They
// follow the failures seen on real invoices (issue 14): numbers and dates in a title line, net/VAT/gross words,
// the seller beside the buyer's block and a country line, line tables with local headers, prepayments.
import type { PageText } from '../../../src/extraction/types.ts';
import { page } from './helpers.ts';

export interface Doc {
  name: string;
  pages: PageText[];
  expected: {
    vendorName: string;
    invoiceNumber: string;
    invoiceDate: string;
    dueDate?: string;
    subtotal: number;
    tax: number;
    total: number;
    currency: string;
    lines: [string, number][];
  };
}

export const DOCS: Doc[] = [
  {
    name: 'de: title line "Rechnung Nr. … vom …", Nettobetrag / USt. / Gesamtbetrag, a country line',
    pages: [page([
      ['Muster Elektro GmbH', 40], ['Industriestraße 12, 70565 Stuttgart', 40], '',
      'Muster Elektro GmbH · Industriestraße 12 · 70565 Stuttgart', 'Bäckerei Sonnenschein KG', 'z. Hd. Frau Weber', 'Lindenweg 3', '80331 München', 'Deutschland', '',
      'Rechnung Nr. 2018-117 vom 05.06.2018', 'Kundennummer: 40021   Lieferdatum: 01.06.2018', '',
      'Pos.   Art.-Nr.   Bezeichnung                 Menge   Einheit   Einzelpreis   Gesamtpreis',
      '1      A-100      Kabelkanal 40x60            10      Stk       12,50         125,00',
      '2      B-220      Installationsarbeiten       3,5     Std       68,00         238,00',
      '                  Elektromeister, vor Ort', '',
      ['Nettobetrag   363,00 €', 330], ['USt. 19 %   68,97 €', 330], ['Gesamtbetrag   431,97 €', 330], '',
      'Zahlbar bis 19.06.2018 ohne Abzug.',
      'Muster Elektro GmbH · Geschäftsführer: Max Muster · USt-IdNr.: DE123456789 · IBAN DE12 5001 0517 0648 4898 90',
    ])],
    expected: { vendorName: 'Muster Elektro GmbH', invoiceNumber: '2018-117', invoiceDate: '2018-06-05', dueDate: '2018-06-19', subtotal: 363, tax: 68.97, total: 431.97, currency: 'EUR', lines: [['Kabelkanal 40x60', 125], ['Installationsarbeiten Elektromeister, vor Ort', 238]] },
  },
  {
    name: 'nl: Factuurnummer / Factuurdatum / Vervaldatum, Omschrijving Aantal Prijs Bedrag, Subtotaal / BTW / Totaal',
    pages: [page([
      ['FACTUUR', 40], ['Bloemenhandel De Tulp B.V.', 320], ['Kerkstraat 8, 1017 GL Amsterdam', 320], ['KvK 12345678   BTW NL001234567B01', 320], '',
      'Factuuradres:', 'Restaurant Het Anker', 'Havenweg 2', '3011 AB Rotterdam', '',
      'Factuurnummer:   F-2024-0042', 'Factuurdatum:   12-03-2024', 'Vervaldatum:   11-04-2024', '',
      'Omschrijving                  Aantal     Prijs      BTW     Bedrag',
      'Rozen rood, bos               20         25,00      21%     500,00',
      'Tafeldecoratie                5          150,00     21%     750,00', '',
      ['Subtotaal   € 1.250,00', 320], ['BTW 21%   € 262,50', 320], ['Totaal   € 1.512,50', 320], '',
      'Wij verzoeken u het bedrag binnen 30 dagen over te maken onder vermelding van het factuurnummer.',
    ])],
    expected: { vendorName: 'Bloemenhandel De Tulp B.V.', invoiceNumber: 'F-2024-0042', invoiceDate: '2024-03-12', dueDate: '2024-04-11', subtotal: 1250, tax: 262.5, total: 1512.5, currency: 'EUR', lines: [['Rozen rood, bos', 500], ['Tafeldecoratie', 750]] },
  },
  {
    name: 'fr: "Facture n° … du 5 juin 2018", Total HT / TVA / Total TTC, acompte and net à payer',
    pages: [page([
      ['Boulangerie Martin SARL', 40], ['12 rue de la Paix, 75002 Paris', 40], ['SIRET 123 456 789 00012 – TVA FR12345678901', 40], '',
      ['Client :', 330], ['Hôtel du Lac', 330], ['5 avenue des Alpes', 330], ['74000 Annecy', 330], ['France', 330], '',
      'Facture n° FA-889 du 5 juin 2018', '',
      'Désignation                  Qté      Prix unitaire HT     Montant HT',
      'Pain de campagne             100      2,50                 250,00',
      'Croissants                   500      1,50                 750,00', '',
      ['Total HT   1 000,00 €', 330], ['TVA 20 %   200,00 €', 330], ['Total TTC   1 200,00 €', 330], ['Acompte versé   -300,00 €', 330], ['Net à payer   900,00 €', 330], '',
      'Échéance : 5 juillet 2018',
    ])],
    expected: { vendorName: 'Boulangerie Martin SARL', invoiceNumber: 'FA-889', invoiceDate: '2018-06-05', dueDate: '2018-07-05', subtotal: 1000, tax: 200, total: 1200, currency: 'EUR', lines: [['Pain de campagne', 250], ['Croissants', 750]] },
  },
  {
    name: 'es: Factura nº / Fecha, Concepto Cantidad Precio Importe, Base imponible / IVA / Total factura',
    pages: [page([
      ['Distribuciones Levante S.L.', 40], ['Calle Mayor 15, 46001 Valencia', 40], ['CIF B12345678', 40], '',
      ['Factura nº:   2024/117', 330], ['Fecha:   15/02/2024', 330], ['Vencimiento:   15/03/2024', 330], '',
      'Cliente:', 'Bar El Puerto', 'Paseo Marítimo 4, 03001 Alicante', 'España', '',
      'Concepto                    Cantidad     Precio      Importe',
      'Aceite de oliva 5L          10           30,00       300,00',
      'Vino tinto crianza          20           10,00       200,00', '',
      ['Base imponible   500,00', 330], ['IVA 21%   105,00', 330], ['Total factura   605,00 €', 330],
    ])],
    expected: { vendorName: 'Distribuciones Levante S.L.', invoiceNumber: '2024/117', invoiceDate: '2024-02-15', dueDate: '2024-03-15', subtotal: 500, tax: 105, total: 605, currency: 'EUR', lines: [['Aceite de oliva 5L', 300], ['Vino tinto crianza', 200]] },
  },
  {
    name: 'it: "Fattura n. … del 3 marzo 2024", Imponibile / IVA / Totale documento',
    pages: [page([
      ['Spett.le', 330], ['Trattoria Da Mario', 330], ['Via Roma 1, 00184 Roma', 330], '',
      ['Caseificio Alpino S.r.l.', 40], ['Via dei Mille 7, 38122 Trento', 40], ['P.IVA 01234567890', 40], '',
      'Fattura n. 45/2024 del 3 marzo 2024', '',
      'Descrizione                  Quantità     Prezzo unitario     Importo',
      'Mozzarella di bufala         40           10,00               400,00',
      'Parmigiano 24 mesi           10           40,00               400,00', '',
      ['Imponibile   800,00', 330], ['IVA 22%   176,00', 330], ['Totale documento   € 976,00', 330], '',
      'Scadenza pagamento: 02/04/2024',
    ])],
    expected: { vendorName: 'Caseificio Alpino S.r.l.', invoiceNumber: '45/2024', invoiceDate: '2024-03-03', dueDate: '2024-04-02', subtotal: 800, tax: 176, total: 976, currency: 'EUR', lines: [['Mozzarella di bufala', 400], ['Parmigiano 24 mesi', 400]] },
  },
  {
    name: 'pt: Fatura n.º / Data de emissão / Vencimento, Descrição Qtd. Preço unit. Valor, Total ilíquido / IVA / Total',
    pages: [page([
      ['Vinhos do Douro, Lda.', 40], ['Rua das Flores 20, 4050-262 Porto', 40], ['NIF 501234567', 40], '',
      ['Exmo. Senhor', 330], ['Restaurante O Marinheiro', 330], ['Avenida da Liberdade 100', 330], ['1250-096 Lisboa', 330], ['Portugal', 330], '',
      'Fatura n.º FT 2024/88', 'Data de emissão: 2024-04-10', 'Vencimento: 2024-05-10', '',
      'Descrição                    Qtd.      Preço unit.     Valor',
      'Vinho tinto reserva          12        12,50           150,00',
      'Vinho do Porto tawny         2         25,00           50,00', '',
      ['Total ilíquido   200,00', 330], ['IVA 23%   46,00', 330], ['Total   246,00 €', 330],
    ])],
    expected: { vendorName: 'Vinhos do Douro, Lda.', invoiceNumber: 'FT 2024/88', invoiceDate: '2024-04-10', dueDate: '2024-05-10', subtotal: 200, tax: 46, total: 246, currency: 'EUR', lines: [['Vinho tinto reserva', 150], ['Vinho do Porto tawny', 50]] },
  },
  {
    name: 'en (US): month-first date, Bill To block first, sales tax, amount paid and balance due',
    pages: [page([
      ['INVOICE', 330], '',
      ['Acme Restaurant Supply Inc.', 40], ['500 Congress Ave, Austin, TX 78701', 40], ['(512) 555-0100', 40], '',
      ['Invoice #:   10023', 330], ['Date:   11/03/2026', 330], ['Due Date:   12/03/2026', 330], '',
      'Bill To:', 'Harbor Bistro LLC', '12 Pier Rd, Galveston, TX 77550', '',
      'Item      Description                Qty     Rate       Amount',
      'CH-10     Chef knife 10"             4       75.00      300.00',
      'PN-22     Sheet pans                 20      35.00      700.00', '',
      ['Subtotal   $1,000.00', 330], ['Sales Tax (8.25%)   $82.50', 330], ['Total   $1,082.50', 330], ['Amount Paid   $500.00', 330], ['Balance Due   $582.50', 330],
    ])],
    expected: { vendorName: 'Acme Restaurant Supply Inc.', invoiceNumber: '10023', invoiceDate: '2026-11-03', dueDate: '2026-12-03', subtotal: 1000, tax: 82.5, total: 1082.5, currency: 'USD', lines: [['Chef knife 10"', 300], ['Sheet pans', 700]] },
  },
  {
    name: 'de: two VAT rates, Zwischensumme, MwSt 7% and 19%, Rechnungsbetrag',
    pages: [page([
      ['Getränke Hoffmann e.K.', 40], ['Am Markt 3, 04109 Leipzig', 40], '',
      ['Rechnungsempfänger:', 40], ['Gasthaus Zur Linde', 40], ['Dorfstraße 1', 40], ['04416 Markkleeberg', 40], '',
      ['Rechnungsnummer:   RG-5512', 330], ['Rechnungsdatum:   28.02.2025', 330], ['Leistungsdatum:   27.02.2025', 330], '',
      'Artikel                       Anzahl    Preis      Betrag',
      'Apfelsaft 12x1L               5         10,00      50,00',
      'Pils Kasten 20x0,5            4         25,00      100,00', '',
      ['Zwischensumme   150,00', 330], ['MwSt 7% auf 50,00   3,50', 330], ['MwSt 19% auf 100,00   19,00', 330], ['Rechnungsbetrag   172,50 EUR', 330],
    ])],
    expected: { vendorName: 'Getränke Hoffmann e.K.', invoiceNumber: 'RG-5512', invoiceDate: '2025-02-28', subtotal: 150, tax: 22.5, total: 172.5, currency: 'EUR', lines: [['Apfelsaft 12x1L', 50], ['Pils Kasten 20x0,5', 100]] },
  },
  {
    name: 'de: labels above their values, a VAT column, a tax breakdown table and a totals row under its labels',
    pages: [page([
      ['Weingut Berger GmbH', 40], ['Rebenweg 4, 67433 Neustadt', 40], '',
      'Rechnungsnummer    Rechnungsdatum    Kundennummer    Fälligkeitsdatum',
      'R-2024-301         14.05.2024        K-7781          28.05.2024', '',
      'Pos   Artikel                 Menge   MwSt   Einzelpreis   Betrag',
      '1     Riesling trocken        12      19%    8,00          96,00',
      '2     Traubensaft             10      7%     4,00          40,00',
      '3     Versandkosten           1       19%    10,00         10,00', '',
      ['Steuersatz   Netto     MwSt', 300], ['19%          106,00    20,14', 300], ['7%           40,00     2,80', 300], '',
      ['Nettobetrag     Steuer     Gesamtbetrag', 250], ['146,00          22,94      168,94 EUR', 250],
    ])],
    expected: { vendorName: 'Weingut Berger GmbH', invoiceNumber: 'R-2024-301', invoiceDate: '2024-05-14', dueDate: '2024-05-28', subtotal: 146, tax: 22.94, total: 168.94, currency: 'EUR', lines: [['Riesling trocken', 96], ['Traubensaft', 40], ['Versandkosten', 10]] },
  },
];
