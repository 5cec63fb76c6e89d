// Document AI `Document` → our extracted fields. Pure (no client, no network): used on the client's decoded response
// and, in tests, directly on recorded responses in Document AI's JSON format.
//
// Entity types are the ones the pretrained processors document:
//   Invoice Parser: supplier_name, invoice_id, invoice_date, due_date, net_amount, total_tax_amount, total_amount,
//     currency, line_item with properties line_item/{description, quantity, unit, unit_price, amount, product_code}.
//   Expense Parser: supplier_name, receipt_date, net_amount, total_tax_amount, tip_amount, total_amount, currency,
//     payment_type, credit_card_last_four_digits, line_item with properties line_item/{description, quantity,
//     unit_price, amount, product_code}.
// Other entities (addresses, purchase_time, receiver_*, ship_*, vat/…) are not part of our records and are ignored.
// Values come from `normalizedValue` (moneyValue, dateValue, text) when the processor gives one; otherwise the
// `mentionText` is parsed with the same helpers the local engine uses. Confidences (0–1) become the local engine's
// 0–100 per-field scale, 0 when the field was not found.

import type { protos } from '@google-cloud/documentai';
import { parseAmount, parseNumber } from '../fields/amounts.ts';
import { detectCurrency } from '../fields/currency.ts';
import { inferDayFirst, parseDate } from '../fields/dates.ts';
import { detectPaymentMethod } from '../fields/payment.ts';
import type { ExtractedInvoiceFields, ExtractedLineItem, ExtractedReceiptFields, PaymentMethod } from '../types.ts';
import { UnreadableDocumentError } from '../types.ts';

export type DocAiDocument = protos.google.cloud.documentai.v1.IDocument;
type Entity = protos.google.cloud.documentai.v1.Document.IEntity;

/** Pages the processor read (at least 1 when it read any text). */
export function pageCountOf(doc: DocAiDocument): number {
  return Math.max(doc.pages?.length ?? 0, doc.text?.trim() ? 1 : 0);
}

/** The invoice in a Document AI Invoice Parser result: one per document, none when it found no invoice fields. */
export function documentToInvoices(doc: DocAiDocument): ExtractedInvoiceFields[] {
  const read = new Reading(doc);
  const vendor = read.text('supplier_name');
  const number = read.text('invoice_id');
  const invoiceDate = read.date('invoice_date');
  const dueDate = read.date('due_date');
  const subtotal = read.money('net_amount');
  const tax = read.money('total_tax_amount');
  const total = read.money('total_amount');
  const items = read.lineItems();
  const found = [vendor, number, invoiceDate, dueDate, subtotal, tax, total].some((f) => f.value !== null) || items.items.length > 0;
  if (!found) return [];
  const currency = read.currency([total, subtotal, tax]);
  const fieldConfidences = {
    vendorName: vendor.confidence,
    invoiceNumber: number.confidence,
    invoiceDate: invoiceDate.confidence,
    dueDate: dueDate.confidence,
    subtotal: subtotal.confidence,
    tax: tax.confidence,
    total: total.confidence,
    currency: currency.confidence,
    lineItems: items.confidence,
  };
  // The same overall score as the local engine: the four fields that identify an invoice.
  const keys = ['vendorName', 'invoiceNumber', 'invoiceDate', 'total'] as const;
  return [
    {
      vendorName: vendor.value,
      invoiceNumber: number.value,
      invoiceDate: invoiceDate.value,
      dueDate: dueDate.value,
      subtotal: subtotal.value,
      tax: tax.value,
      total: total.value,
      currency: currency.value,
      lineItems: items.items,
      confidence: Math.round(keys.reduce((s, k) => s + fieldConfidences[k], 0) / keys.length),
      fieldConfidences,
      pages: Array.from({ length: pageCountOf(doc) }, (_, i) => i + 1),
    },
  ];
}

/** The receipt in a Document AI Expense Parser result. */
export function documentToReceipt(doc: DocAiDocument): ExtractedReceiptFields {
  const read = new Reading(doc);
  const merchant = read.text('supplier_name');
  const date = read.date('receipt_date');
  const subtotal = read.money('net_amount');
  const tax = read.money('total_tax_amount');
  const tip = read.money('tip_amount');
  const total = read.money('total_amount');
  const items = read.lineItems();
  const currency = read.currency([total, subtotal, tax, tip]);
  const fieldConfidences = {
    merchantName: merchant.confidence,
    receiptDate: date.confidence,
    subtotal: subtotal.confidence,
    tax: tax.confidence,
    tip: tip.confidence,
    total: total.confidence,
    currency: currency.confidence,
    lineItems: items.confidence,
  };
  return {
    merchantName: merchant.value,
    receiptDate: date.value,
    subtotal: subtotal.value,
    tax: tax.value,
    tip: tip.value,
    total: total.value,
    currency: currency.value,
    paymentMethod: read.paymentMethod(),
    lineItems: items.items,
    // The same overall score as the local engine: merchant, date and (twice) the total.
    confidence: Math.round((fieldConfidences.merchantName + fieldConfidences.receiptDate + fieldConfidences.total * 2) / 4),
    fieldConfidences,
  };
}

/** Rejects a result with nothing in it (no text, no entities): the processor could not read the document. */
export function assertReadable(doc: DocAiDocument | null | undefined): asserts doc is DocAiDocument {
  if (!doc || (!doc.text?.trim() && !doc.entities?.length)) {
    throw new UnreadableDocumentError('no text could be read from the document');
  }
}

interface Field<T> {
  value: T | null;
  /** 0–100; 0 when not found. */
  confidence: number;
  /** The entity it came from (for money: its currency code). */
  entity?: Entity;
}

const NOT_FOUND: Field<never> = { value: null, confidence: 0 };

/** One document's entities, read with the document's own date order (day/month) for texts that need parsing. */
class Reading {
  private readonly dayFirst: boolean;
  private readonly entities: Entity[];

  constructor(private readonly doc: DocAiDocument) {
    this.dayFirst = inferDayFirst(doc.text ?? '');
    this.entities = doc.entities ?? [];
  }

  text(type: string, within = this.entities): Field<string> {
    const e = best(within, type);
    return e ? field(cleanText(e.normalizedValue?.text) ?? cleanText(e.mentionText), e) : NOT_FOUND;
  }

  date(type: string): Field<string> {
    const e = best(this.entities, type);
    if (!e) return NOT_FOUND;
    const d = e.normalizedValue?.dateValue;
    if (d?.year && d.month && d.day) return field(`${d.year}-${pad(d.month)}-${pad(d.day)}`, e);
    const text = e.normalizedValue?.text || e.mentionText || '';
    return field(parseDate(text, { dayFirst: this.dayFirst }), e);
  }

  money(type: string, within = this.entities): Field<number> {
    const e = best(within, type);
    if (!e) return NOT_FOUND;
    const m = e.normalizedValue?.moneyValue;
    if (m && (m.units != null || m.nanos != null)) return field(round2(Number(String(m.units ?? 0)) + (m.nanos ?? 0) / 1e9), e);
    return field(parseAmount(e.normalizedValue?.text || '') ?? parseAmount(e.mentionText ?? ''), e);
  }

  quantity(within: Entity[]): Field<number> {
    const e = best(within, 'quantity');
    if (!e) return NOT_FOUND;
    const nv = e.normalizedValue;
    if (nv?.floatValue != null && isStructured(nv, 'floatValue')) return field(nv.floatValue, e);
    if (nv?.integerValue != null && isStructured(nv, 'integerValue')) return field(nv.integerValue, e);
    const digits = /\d+(?:[.,]\d+)?/.exec(nv?.text || e.mentionText || '');
    return field(digits ? parseNumber(digits[0]) : null, e);
  }

  /** An ISO code from the `currency` entity, else from the amounts' money values, else from the document's text. */
  currency(amounts: Array<Field<number>>): Field<string> {
    const e = best(this.entities, 'currency');
    const iso = (s: string | null | undefined) => (s && /^[A-Z]{3}$/.test(s.trim()) ? s.trim() : null);
    const fromEntity = iso(e?.normalizedValue?.text) ?? iso(e?.mentionText);
    if (e && fromEntity) return field(fromEntity, e);
    for (const a of amounts) {
      const code = iso(a.entity?.normalizedValue?.moneyValue?.currencyCode);
      if (code) return { value: code, confidence: a.confidence, entity: a.entity };
    }
    const evidence = detectCurrency([e?.mentionText, this.doc.text].filter(Boolean).join('\n'));
    return { value: evidence.currency, confidence: evidence.currency ? evidence.confidence : 0 };
  }

  lineItems(): { items: ExtractedLineItem[]; confidence: number } {
    const items: ExtractedLineItem[] = [];
    const confidences: number[] = [];
    for (const line of this.entities.filter((e) => e.type === 'line_item')) {
      // Properties are typed `line_item/description` etc.; some processor versions omit the prefix.
      const props = (line.properties ?? []).map((p) => ({ ...p, type: p.type?.replace(/^line_item\//, '') ?? '' }));
      const item: ExtractedLineItem = {
        description: this.text('description', props).value,
        sku: this.text('product_code', props).value,
        quantity: this.quantity(props).value,
        unit: this.text('unit', props).value,
        unitPrice: this.money('unit_price', props).value,
        total: this.money('amount', props).value,
      };
      if (Object.values(item).every((v) => v === null)) continue;
      items.push(item);
      const own = line.confidence ?? 0;
      confidences.push(own > 0 ? own : mean(props.map((p) => p.confidence ?? 0)));
    }
    return { items, confidence: items.length ? percent(mean(confidences)) : 0 };
  }

  /** `payment_type` ("VISA", "Cash", "Debit card"…) and `credit_card_last_four_digits`, read by the local rules. */
  paymentMethod(): PaymentMethod {
    const type = this.text('payment_type').value;
    const last4 = /(\d{4})\D*$/.exec(this.text('credit_card_last_four_digits').value ?? '')?.[1] ?? null;
    const method = detectPaymentMethod([type, last4 ? `****${last4}` : null].filter(Boolean).join(' '));
    return { ...method, last4: last4 ?? method.last4 };
  }
}

/** The most confident entity of a type (a processor may return several candidates). */
export function best(entities: Entity[], type: string): Entity | undefined {
  let found: Entity | undefined;
  for (const e of entities) if (e.type === type && (!found || (e.confidence ?? 0) > (found.confidence ?? 0))) found = e;
  return found;
}

function field<T>(value: T | null, entity: Entity): Field<T> {
  return { value, confidence: value === null ? 0 : percent(entity.confidence ?? 0), entity };
}

/**
 * Whether a oneof member is the one set. The client's decoded objects say so in `structuredValue` (and fill unset
 * scalars with defaults); plain JSON simply has the member or not.
 */
function isStructured(nv: protos.google.cloud.documentai.v1.Document.Entity.INormalizedValue, member: string): boolean {
  const which = (nv as { structuredValue?: unknown }).structuredValue;
  return typeof which === 'string' ? which === member : true;
}

const cleanText = (s: string | null | undefined) => s?.replace(/\s+/g, ' ').trim() || null;
const pad = (n: number) => String(n).padStart(2, '0');
const round2 = (n: number) => Math.round(n * 100) / 100;
const percent = (confidence: number) => Math.round(Math.min(1, Math.max(0, confidence)) * 100);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
