// What an e-invoice (CII or UBL XML) says, in our terms. Plain data: it crosses from the reading worker.
import type { ExtractedLineItem } from '../types.ts';
import type { EInvoiceSyntax } from './syntax.ts';

/** The header amounts as the document states them (null when absent), before any sign or fallback is applied. */
export interface StatedSums {
  lineTotal: number | null;
  allowances: number | null;
  charges: number | null;
  taxBasis: number | null;
  taxTotal: number | null;
  /** Σ of the VAT breakdown's tax amounts. */
  taxBreakdown: number | null;
  grandTotal: number | null;
  prepaid: number | null;
  due: number | null;
}

/** One syntax's reading of the document, before the shared rules (totals, signs, checks). */
export interface ParsedEInvoice {
  syntax: EInvoiceSyntax;
  profile: string | null;
  typeCode: string | null;
  /** The root says so (UBL CreditNote); otherwise the type code decides. */
  creditNoteRoot: boolean;
  vendorName: string | null;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  dueDate: string | null;
  currency: string | null;
  sums: StatedSums;
  /** Lines that carry amounts (sub-lines and information-only lines are left out), with amounts as stated. */
  lineItems: ExtractedLineItem[];
}

export interface EInvoice {
  syntax: EInvoiceSyntax;
  /** What the document says it conforms to (CII guideline, UBL CustomizationID), e.g. urn:cen.eu:en16931:2017. */
  profile: string | null;
  typeCode: string | null;
  /** A credit note: amounts, quantities and line totals are negated (money coming back), unit prices are not. */
  creditNote: boolean;
  vendorName: string | null;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  dueDate: string | null;
  currency: string | null;
  /** Tax basis total (line total − allowances + charges). */
  subtotal: number | null;
  tax: number | null;
  /** Grand total with tax — not the amount due after prepayments. */
  total: number | null;
  /** What is left to pay (grand total − prepaid ± rounding). */
  amountDue: number | null;
  lineItems: ExtractedLineItem[];
  /** EN 16931 sum rules the header totals break: the totals cannot be trusted. */
  totalsProblems: string[];
  /** The lines do not add up to the document's line total. */
  linesProblem: string | null;
}

export interface EInvoiceReading {
  /** The attachment's name (e.g. factur-x.xml); null for an uploaded XML file or an attachment without a name. */
  fileName: string | null;
  einvoice: EInvoice | null;
  /** Why no e-invoice could be read from it, when `einvoice` is null. */
  error: string | null;
}
