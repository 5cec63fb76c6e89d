// German labels kept apart from the engine's: XRechnung/EN 16931 term names in other words ("Fälligkeitsdatum der
// Zahlung", "Steuerbasisbetrag", "Steuergesamtbetrag"), synonyms, office abbreviations ("RG-Nummer", "Re-Nummer") and typos.
import type { Vocabulary } from './types.ts';

export const de: Vocabulary = {
  key: {
    invoiceNumber: ['Rechnungskennung', 'RG-Nummer', 'Fakturanummer', 'Unsere Rechnung Nr.', 'Re-Nummer', 'Rechungsnummer', 'Dokument-Nr.', 'Rechnungs-ID', 'Rechnungsnummmer'],
    invoiceDate: ['Datum der Ausstellung', 'Rechnungsausstellungsdatum', 'Re.-Datum', 'Ausgestellt', 'RG-Datum', 'Fakturadatum', 'Rechnungsdat.', 'Rechnugsdatum', 'Datum Rechnung'],
    dueDate: ['Fälligkeitsdatum der Zahlung', 'Zahlungstermin', 'Zahlbar spätestens am', 'Spätestens zahlbar bis', 'Zahlungsfrist', 'Valuta', 'Fälligkeitstermin', 'Zahlung fällig am', 'Zahldatum'],
    subtotal: ['Summe der Nettobeträge', 'Steuerbasisbetrag', 'Betrag ohne Steuer', 'Nettowert', 'Warenwert netto', 'Summe exkl. MwSt.', 'Rechnungsbetrag exkl. USt.', 'Nettogesamtbetrag', 'Netosumme'],
    taxTotal: ['Steuergesamtbetrag', 'MwSt.-Summe', 'Umsatzsteuersumme', 'Steuern gesamt', 'enthaltene Steuer', 'USt. Summe', 'Mehrwertsteuerbetrag', 'Summe Steuern'],
    total: ['Bruttogesamtbetrag', 'Betrag inkl. USt.', 'Gesamtbetrag inkl. Steuer', 'Rechnungsendsumme', 'Summe gesamt', 'Brutto-Rechnungsbetrag', 'Endsumme brutto', 'Gesamtsumme inkl. MwSt.', 'Gesammtbetrag'],
    amountDue: ['Fälliger Zahlbetrag', 'Zu überweisen', 'Verbleibender Betrag', 'Offene Summe', 'Noch offen', 'Restsumme', 'Überweisungsbetrag'],
    prepaid: ['Vorausbezahlter Betrag', 'Bereits geleistet', 'Abschlag erhalten', 'abzgl. geleisteter Zahlungen', 'Erhaltene Vorauszahlung', 'Gezahlt', 'Akonto'],
    itemsTotal: ['Summe Rechnungspositionen', 'Positionen gesamt', 'Summe der Artikel', 'Warensumme', 'Summe Einzelposten', 'Artikelsumme'],
  },
  other: {
    seller: ['Verkauft von', 'Lieferant', 'Rechnungsaussteller', 'Anbieter', 'Leistender Unternehmer', 'Verkäufer'],
    customerNumber: ['Kunden-Nr.', 'Kundenkonto', 'Debitor', 'Ihre Kd.-Nr.', 'Kunden-ID'],
    orderNumber: ['Ihre Bestell-Nr.', 'Bestellreferenz', 'Auftrag', 'Auftrags-Nr.', 'Ihr Auftrag'],
    orderDate: ['Bestelldatum', 'Auftragsdatum', 'Bestellt am', 'Auftrag vom'],
    deliveryDate: ['Tatsächliches Lieferdatum', 'Geliefert am', 'Versanddatum', 'Lieferung'],
    deliveryNote: ['Lieferschein-Nr.', 'Versandavis', 'Lieferscheinnummer', 'Packliste'],
    billTo: ['Rechnungsanschrift', 'Rechnung an', 'Käufer', 'Empfänger'],
    shipTo: ['Lieferanschrift', 'Lieferung an', 'Versandadresse', 'Warenempfänger'],
    contractNumber: ['Vertragsnummer', 'Vertragsreferenz', 'Rahmenvertrag', 'Vertrag Nr.'],
    buyerReference: ['Leitweg-ID', 'Käuferreferenz', 'Kostenstelle', 'Ihre Referenz'],
    gln: ['GLN', 'ILN', 'Global Location Number', 'ILN-Nr.'],
    gtin: ['EAN', 'GTIN', 'EAN-Code', 'Barcode'],
    supplierNumber: ['Lieferantennummer', 'Lieferanten-Nr.', 'Unsere Lief.-Nr.', 'Kreditor-Nr.'],
    projectNumber: ['Projektnummer', 'Projekt', 'Projektreferenz', 'Objekt'],
    servicePeriod: ['Leistungszeitraum', 'Abrechnungszeitraum', 'Rechnungszeitraum', 'Zeitraum'],
    printDate: ['Druckdatum', 'Gedruckt am', 'Erstellt am', 'Ausdruck vom'],
    taxNumber: ['Steuernummer', 'St.-Nr.', 'Steuer-Nr.', 'StNr.'],
    accountHolder: ['Kontoinhaber', 'Empfänger', 'Zahlungsempfänger', 'Inhaber'],
    precedingInvoice: ['Vorausgegangene Rechnung', 'Ursprungsrechnung Nr.', 'Korrektur zu Rechnung', 'Vorherige Rechnung'],
    precedingInvoiceDate: ['Datum der vorausgegangenen Rechnung', 'Datum Ursprungsrechnung', 'Ursprungsrechnung vom', 'Vorherige Rechnung vom'],
  },
  titleLine: ['{invoice} {number} · {date}', '{invoice} {number}, ausgestellt {date}', '{invoice} {number} / {date}'],
  rights: ['Alle Rechte vorbehalten.', 'Alle Rechte vorbehalten'],
  taxNumber: { DE: ['###/###/#####', '##/###/#####'], AT: ['## ###/####'] },
};
