// What a language contributes to the corpus: labels (several synonyms each), phrases, names, products and the
// countries that write it (currency, number and date conventions, legal forms, identifiers).

import type { Rng } from '../random.ts';
import type { DateStyle, DateWords, NegativeStyle, NumberStyleName } from '../format.ts';

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

export type UnitKey = 'piece' | 'kg' | 'litre' | 'hour' | 'box' | 'pack' | 'metre' | 'day' | 'flat' | 'month' | 'bottle';
export type Domain = 'food' | 'drinks' | 'kitchen' | 'cleaning' | 'it' | 'repairs' | 'office' | 'marketing' | 'linen' | 'freight';

export interface Product {
  name: string;
  unit: UnitKey;
  /** Unit price range in EUR-like units (scaled per currency). */
  price: readonly [number, number];
  domain: Domain;
}

export interface Country {
  code: string;
  /** The country line of an address as this language prints it. */
  name: string;
  currency: { code: string; symbol: string };
  numberStyles: readonly NumberStyleName[];
  negativeStyles: readonly NegativeStyle[];
  dateStyles: readonly DateStyle[];
  /** Month-first numeric dates and textual dates (United States). */
  monthFirst?: boolean;
  legalForms: readonly string[];
  cities: readonly string[];
  /** Street line, e.g. "Hauptstraße 12" or "12, rue de la Paix". */
  street(rng: Rng, streetName: string): string;
  /** Postcode + city line, e.g. "80331 München" or "London SW1A 1AA". */
  cityLine(rng: Rng, city: string): string;
  vatId(rng: Rng): string;
  /** Standard rate first; an invoice picks one or more. */
  vatRates: readonly number[];
  phone(rng: Rng): string;
  banks: readonly string[];
  /** IBAN layout after the check digits: [length, alphabet] runs; empty where IBANs are not used (US). */
  ibanParts: ReadonlyArray<readonly [number, string]>;
  /** Company registration line (court and number, RCS, KvK, company number …). */
  register(rng: Rng, city: string): string;
  /** The tax's short name on this country's invoices (MwSt., USt., TVA, IVA, BTW, VAT, Sales Tax). */
  taxNames: readonly string[];
  /** Domain suffix for e-mail and web addresses. */
  tld: string;
  /** How often this country's invoices come up among the language's (default 1). */
  weight?: number;
  /** Labels of the seller's tax id where the language's own do not fit (United States: "Tax ID", "EIN"). */
  vatIdLabels?: readonly string[];
}

/** Labels: each a list of synonyms, one chosen per document. */
export interface Labels {
  invoice: readonly string[];
  invoiceNumber: readonly string[];
  invoiceDate: readonly string[];
  dueDate: readonly string[];
  customerNumber: readonly string[];
  orderNumber: readonly string[];
  orderDate: readonly string[];
  deliveryDate: readonly string[];
  deliveryNote: readonly string[];
  billTo: readonly string[];
  shipTo: readonly string[];
  /** "Page {p} of {n}" templates. */
  page: readonly string[];
  pos: readonly string[];
  itemNo: readonly string[];
  description: readonly string[];
  quantity: readonly string[];
  unit: readonly string[];
  unitPrice: readonly string[];
  discount: readonly string[];
  vatRate: readonly string[];
  amount: readonly string[];
  itemsTotal: readonly string[];
  /** The net total (tax basis): what the ground truth calls `subtotal`. */
  subtotal: readonly string[];
  taxTotal: readonly string[];
  /** The gross total. */
  total: readonly string[];
  allowance: readonly string[];
  shipping: readonly string[];
  prepaid: readonly string[];
  amountDue: readonly string[];
  carriedForward: readonly string[];
  broughtForward: readonly string[];
  continued: readonly string[];
  taxBase: readonly string[];
  taxAmount: readonly string[];
  gross: readonly string[];
  vatId: readonly string[];
  phone: readonly string[];
  email: readonly string[];
  web: readonly string[];
  bank: readonly string[];
  director: readonly string[];
  currency: readonly string[];
  /** Narrow till receipts. */
  receiptTitle: readonly string[];
  cashier: readonly string[];
  paidCard: readonly string[];
  paidCash: readonly string[];
  change: readonly string[];
  cardSlip: readonly string[];
  /** The data sheet (a plain rendering of e-invoice data, render/sheet.ts): section headings and row labels. */
  sheetTitle: readonly string[];
  sheetSeller: readonly string[];
  sheetBuyer: readonly string[];
  sheetDocument: readonly string[];
  sheetTotals: readonly string[];
  sheetDetails: readonly string[];
  sheetPrice: readonly string[];
  sheetItem: readonly string[];
  sheetCompany: readonly string[];
  sheetName: readonly string[];
  sheetStreet: readonly string[];
  sheetPostcode: readonly string[];
  sheetCity: readonly string[];
  sheetCountry: readonly string[];
  sheetUnitPrice: readonly string[];
  sheetLineTotal: readonly string[];
  sheetItemsSum: readonly string[];
  /** The qualifiers of a totals row ("Total | net | 100.00"). */
  sheetNet: readonly string[];
  sheetGross: readonly string[];
  /** An item's heading when it is not its name: "Line {n}". */
  sheetPosition: readonly string[];
}

/** Sentences with {placeholders}: {invoice} {number} {date} {n} {amount}. */
export interface Phrases {
  titleLine: readonly string[];
  payWithinDays: readonly string[];
  payBy: readonly string[];
  paid: readonly string[];
  thanks: readonly string[];
  intro: readonly string[];
  deliveryAsInvoiceDate: readonly string[];
  reverseCharge: readonly string[];
}

export interface Locale {
  language: Language;
  countries: readonly Country[];
  labels: Labels;
  phrases: Phrases;
  dates: DateWords;
  firstNames: readonly string[];
  lastNames: readonly string[];
  /** Trades for company names ("Haustechnik", "Traiteur", "Distribuciones"). */
  trades: readonly string[];
  /** How a company name is put together: {last} {last2} {trade} {city} {brand}. */
  namePatterns: readonly string[];
  brands: readonly string[];
  streets: readonly string[];
  units: Record<UnitKey, readonly string[]>;
  products: readonly Product[];
  /** Extra lines of a long description. */
  details: readonly string[];
}
