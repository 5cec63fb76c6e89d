// The words an invoice uses, per language. Data only: the field rules compile these phrases (./vocab.ts) and never
// spell a label themselves, so adding a language is adding a file.
//
// Phrases are written lower-case, with or without accents (matching ignores both); words are separated by single
// spaces and match across spaces, hyphens, dots, colons or nothing ("rechnungs nr" matches "Rechnungs-Nr.",
// "Rechnungsnr"); a word ending in "." matches with or without the dot ("nr." matches "Nr" and "Nr."). A phrase
// starting with "~" is generic ("date", "no.", "to"): weak evidence on its own, taken when nothing stronger is there.

export type LangCode = 'en' | 'de' | 'fr' | 'es' | 'it' | 'nl' | 'pt';

/** Label fields: values are read next to these; the distractors are labels whose values must not be taken. */
export interface LabelVocabulary {
  invoiceNumber: string[];
  invoiceDate: string[];
  dueDate: string[];
  /** Distractor dates: delivery, service period, order date. */
  deliveryDate: string[];
  /** Distractor numbers. */
  orderNumber: string[];
  customerNumber: string[];
  /** Distractor: the number or date of another invoice this one refers to (credit notes, corrections). */
  relatedInvoice: string[];
  /** Gross total (tax included). */
  total: string[];
  /** Net amount before tax. */
  subtotal: string[];
  /** The tax amount (VAT, sales tax). */
  tax: string[];
  discount: string[];
  shipping: string[];
  /** What is left to pay (after prepayments): not the invoice total when a prepayment is printed. */
  amountDue: string[];
  prepaid: string[];
  /** Heading of the VAT breakdown table, which follows the line items. */
  taxSummary: string[];
  /** Lines of a table that carry a sum from one page to the next: not items. */
  carriedForward: string[];
  /** The issuer's block. */
  seller: string[];
  /** The customer's block (bill to, ship to). */
  buyer: string[];
  /** VAT id, tax number, company register: evidence of a party (the issuer's in a letterhead or footer). */
  taxId: string[];
}

export interface ColumnVocabulary {
  description: string[];
  quantity: string[];
  unit: string[];
  unitPrice: string[];
  amount: string[];
  sku: string[];
  vatRate: string[];
  /** A line discount (a rate or an amount): kept apart from the price and amount columns. */
  discount: string[];
  position: string[];
}

export interface LanguageData {
  code: LangCode;
  /** Frequent words of this language on invoices (function words, document words), used to detect the language. */
  markers: string[];
  /** Numeric dates put the day first when the document gives no other evidence. */
  dayFirst: boolean;
  /** The decimal separator of amounts when the document gives no other evidence. */
  decimal: '.' | ',';
  /** Document titles ("Invoice", "Rechnung"); a title may carry the number and date ("Rechnung Nr. 7 vom …"). */
  invoiceTitle: string[];
  labels: LabelVocabulary;
  columns: ColumnVocabulary;
  /** Payment terms ("30 Tage netto", "à 30 jours", "within 14 days"): the due date is the invoice date + N days. */
  paymentTerms: {
    /** The unit after the number of days. */
    days: string[];
    /** Words that make a line about paying. */
    context: string[];
    /** Words of an early-payment discount, whose days are not the due date. */
    discount: string[];
  };
  /** Labels of a party's name in forms ("Company name: …", "Raison sociale"): not part of the name. */
  partyNameLabels: string[];
  /** Words after a total's label that say which total it is ("Total   net   100.00", "Gesamtsumme brutto"). */
  amountQualifiers: { net: string[]; gross: string[] };
  /** Words that introduce a date after another label: "vom", "du", "dated", "del". */
  dateWords: string[];
  /** Twelve lists of month names and abbreviations, January first. */
  months: string[][];
  legalForms: string[];
  /** Country names written in this language: a line holding only a country is never a name. */
  countries: string[];
}
