// Shared shapes of the local extraction engine. Reading (bytes → words with boxes) and understanding
// (words → fields) meet here.

export type DocumentKind = 'invoice' | 'receipt';
/** `xml`: an e-invoice (CII or UBL) uploaded as it is, for invoices only. */
export type FileType = 'pdf' | 'jpeg' | 'png' | 'webp' | 'xml';

/**
 * Where an invoice's values came from (DESIGN §9): the machine-readable invoice the document carries (`e-invoice`:
 * a PDF's CII/UBL attachment or an uploaded XML file), the PDF's text layer (`text`), or OCR of its pages (`ocr`).
 */
export type InvoiceSource = 'e-invoice' | 'text' | 'ocr';

/** One word with its box. Coordinates in page units with the origin at the top-left, y growing downwards. */
export interface Word {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0–100: 100 for a PDF text layer, the OCR engine's confidence otherwise. */
  confidence: number;
}

export interface PageText {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  words: Word[];
  source: 'text-layer' | 'ocr';
  /** Time spent reading this page (text layer or render + OCR). */
  ms: number;
  /**
   * OCR'd pages read tilted: the angle (radians) the word boxes were turned by, about the page centre, to level the
   * lines (ppocr/deskew.ts). Evidence turns boxes back by it to land on the page as it is shown. Absent: level.
   */
  skew?: number;
}

export interface ExtractedLineItem {
  description: string | null;
  sku: string | null;
  quantity: number | null;
  unit: string | null;
  unitPrice: number | null;
  total: number | null;
}

/** 0–100 per field: how much evidence backs the value (0 when not found). */
export type FieldConfidences = Record<string, number>;

/** Where a value was read (DESIGN §11): the e-invoice data, the PDF's text layer, or OCR of the page. */
export type EvidenceSource = 'EINVOICE' | 'TEXT_LAYER' | 'OCR';

/** A box on a page as fractions (0–1) of its width and height, origin top-left, the page as rendered upright. */
export interface EvidenceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One value and where it was read; page and box are null for a value printed nowhere (derived, or data only). */
export interface FieldEvidence {
  field: string;
  value: string;
  /** 0–100: the field's confidence (a line's cells: the line items' confidence). */
  confidence: number;
  /** 1-based page of the document. */
  page: number | null;
  box: EvidenceBox | null;
  source: EvidenceSource;
}

/** Evidence of a document's header fields, and of each line item's cells (same order as its line items). */
export interface DocumentEvidence {
  fields: FieldEvidence[];
  lineItems: FieldEvidence[][];
}

/** An invoice's header fields: what extraction reads and the API shows under the same names. */
export interface InvoiceHeader {
  vendorName: string | null;
  invoiceNumber: string | null;
  /** ISO yyyy-mm-dd. */
  invoiceDate: string | null;
  dueDate: string | null;
  subtotal: number | null;
  tax: number | null;
  total: number | null;
  /** ISO 4217, only when the document gives evidence for it. */
  currency: string | null;
}

export interface ExtractedInvoiceFields extends InvoiceHeader {
  lineItems: ExtractedLineItem[];
  /** 0–100 overall. */
  confidence: number;
  fieldConfidences: FieldConfidences;
  /** Pages (1-based) this invoice was read from: a multi-vendor PDF yields several invoices. */
  pages: number[];
  /** What the reading noticed about this invoice (amounts that do not add up); delivered in the extraction's notes. */
  notes?: string[];
  /** Where each value was read (absent: the provider gives none). */
  evidence?: DocumentEvidence;
}

/** An invoice as a provider delivers it: the fields and where they came from. */
export type DeliveredInvoice = ExtractedInvoiceFields & { source: InvoiceSource };

export type PaymentMethodType = 'cash' | 'credit' | 'debit' | 'gift_card' | 'mobile' | 'check' | 'other' | 'unknown';

/** How a receipt was paid (DESIGN §9 `paymentMethod`). */
export interface PaymentMethod {
  type: PaymentMethodType;
  cardBrand: string | null;
  last4: string | null;
}

export interface ExtractedReceiptFields {
  merchantName: string | null;
  receiptDate: string | null;
  subtotal: number | null;
  tax: number | null;
  tip: number | null;
  total: number | null;
  currency: string | null;
  paymentMethod: PaymentMethod;
  lineItems: ExtractedLineItem[];
  confidence: number;
  fieldConfidences: FieldConfidences;
  /** Where each value was read (absent: the provider gives none). */
  evidence?: DocumentEvidence;
}

/** A file that cannot be read as a document of the accepted types (→ 400 at the API). */
export class UnsupportedFileError extends Error {}
/** A file of an accepted type whose content could not be read (corrupt, encrypted) (→ record `failed`). */
export class UnreadableDocumentError extends Error {}
