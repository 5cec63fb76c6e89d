// Dutch labels kept apart from the engine's: EN 16931 term names in other words ("Factuur-ID", "Maatstaf van
// heffing"), synonyms, abbreviations ("Fact.nr.", "Subtot.") and typos.
import type { Vocabulary } from './types.ts';

export const nl: Vocabulary = {
  key: {
    invoiceNumber: ['Factuur-ID', 'Factuurkenmerk', 'Fact.nr.', 'Nummer factuur', 'Factuurreferentie', 'Notanummer', 'Factuurnumer', 'Fact. nummer'],
    invoiceDate: ['Datum van de factuur', 'Uitgegeven op', 'Fact.datum', 'Datum uitgifte', 'Gefactureerd op', 'Notadatum', 'Factuurdatm'],
    dueDate: ['Betalingstermijn tot', 'Uiterste betaaldag', 'Te betalen uiterlijk', 'Betaaldatum uiterlijk', 'Vervaldatum betaling', 'Betalen uiterlijk op', 'Verval'],
    subtotal: ['Totaal zonder btw', 'Bedrag exclusief btw', 'Netto factuurbedrag', 'Subtot.', 'Som excl. btw', 'Totaalbedrag excl.', 'Maatstaf van heffing'],
    taxTotal: ['Totaalbedrag btw', 'Som btw', 'Btw verschuldigd', 'Omzetbelasting totaal', 'Btw-som', 'Berekende btw'],
    total: ['Totaalbedrag incl. btw', 'Eindbedrag', 'Factuurwaarde', 'Totaal te voldoen', 'Bruto totaal', 'Totale som', 'Totaal factuur', 'Toaal incl. btw'],
    amountDue: ['Nog openstaand', 'Resterend saldo', 'Openstaand saldo', 'Te betalen saldo', 'Nog te voldoen', 'Restbedrag'],
    prepaid: ['Reeds ontvangen', 'Vooruit betaald', 'Ontvangen aanbetaling', 'Betaald op rekening', 'Eerder betaald', 'Ontvangen bedrag'],
    itemsTotal: ['Totaal regels', 'Som artikelen', 'Totaal van de regels', 'Totaal goederen', 'Subtotaal artikelen'],
  },
  other: {
    seller: ['Verkocht door', 'Leverancier', 'Verkoper', 'Afzender', 'Gegevens leverancier'],
    customerNumber: ['Klantnummer', 'Debiteurnr.', 'Klant-ID', 'Relatienr.'],
    orderNumber: ['Uw ordernummer', 'Inkooporder', 'Ordernr.', 'Uw bestelnummer'],
    orderDate: ['Orderdatum', 'Besteld op', 'Datum bestelling'],
    deliveryDate: ['Werkelijke leverdatum', 'Geleverd op', 'Verzonden op', 'Afleverdatum'],
    deliveryNote: ['Pakbon', 'Pakbonnr.', 'Afleverbon', 'Vrachtbrief'],
    billTo: ['Factuuradres', 'Gefactureerd aan', 'Klant', 'Koper'],
    shipTo: ['Afleveradres', 'Leveren aan', 'Leveradres', 'Ontvanger'],
    contractNumber: ['Contractreferentie', 'Contractnr.', 'Raamovereenkomst', 'Overeenkomst'],
    buyerReference: ['Referentie koper', 'Inkoopreferentie', 'Kostenplaats', 'OIN'],
    gln: ['GLN', 'GLN-code', 'Locatiecode', 'Vestigings-GLN'],
    gtin: ['EAN', 'GTIN', 'EAN-code', 'Streepjescode'],
    supplierNumber: ['Leveranciersnummer', 'Crediteurnr.', 'Ons leveranciersnr.', 'Leveranciers-ID'],
    projectNumber: ['Projectreferentie', 'Projectnr.', 'Project', 'Werknummer'],
    servicePeriod: ['Factuurperiode', 'Periode', 'Leveringsperiode', 'Dienstperiode'],
    printDate: ['Afdrukdatum', 'Afgedrukt op', 'Printdatum', 'Aangemaakt op'],
    taxNumber: ['RSIN', 'Fiscaal nummer', 'RSIN-nr.', 'Fiscaal nr.'],
    accountHolder: ['Rekeninghouder', 'Ten name van', 't.n.v.', 'Begunstigde'],
    precedingInvoice: ['Voorgaande factuur', 'Oorspronkelijke factuur nr.', 'Gerelateerde factuur', 'Correctie op factuur'],
    precedingInvoiceDate: ['Datum voorgaande factuur', 'Datum oorspronkelijke factuur', 'Gerelateerde factuur van'],
  },
  titleLine: ['{invoice} {number} · {date}', '{invoice} {number}, uitgegeven op {date}', '{invoice} {number} / {date}'],
  rights: ['Alle rechten voorbehouden.', 'Alle rechten voorbehouden'],
  taxNumber: { NL: ['#########'] },
};
