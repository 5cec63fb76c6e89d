import { describe, expect, test } from 'vitest';
import { type DocAiDocument, assertReadable, documentToInvoices, documentToReceipt, pageCountOf } from '../../../src/extraction/documentai/entities.ts';
import { UnreadableDocumentError } from '../../../src/extraction/types.ts';
import { EXPENSE_RESPONSE, INVOICE_RESPONSE } from './fake-documentai.ts';

// The mapping alone, on the recorded responses exactly as Document AI's REST API returns them (proto3 JSON:
// int64 as strings, fields at their defaults omitted).

const invoiceDoc = (): DocAiDocument => JSON.parse(INVOICE_RESPONSE).document;
const expenseDoc = (): DocAiDocument => JSON.parse(EXPENSE_RESPONSE).document;

describe('Invoice Parser document → ExtractedInvoiceFields', () => {
  test('every field, from normalized values where given and parsed mention texts where not', () => {
    const invoices = documentToInvoices(invoiceDoc());
    expect(invoices).toHaveLength(1);
    const [inv] = invoices;
    expect(inv).toMatchObject({
      vendorName: 'Green Valley Produce Co.',
      invoiceNumber: 'INV-20431',
      invoiceDate: '2024-03-05', // dateValue
      dueDate: '2024-04-04', // "April 4, 2024" parsed (no normalizedValue)
      subtotal: 343.2, // "$343.20" parsed (no normalizedValue)
      tax: 24.02, // moneyValue units 24 + nanos 0.02
      total: 367.22, // the more confident of two total_amount candidates
      currency: 'USD', // the currency entity's normalized ISO code
      pages: [1, 2],
    });
  });

  test('line items from line_item properties, in document order, across pages', () => {
    const [inv] = documentToInvoices(invoiceDoc());
    expect(inv!.lineItems).toEqual([
      { description: 'Romaine lettuce case', sku: 'PRD-1001', quantity: 4, unit: 'case', unitPrice: 32.5, total: 130 },
      { description: 'Boneless chicken breast', sku: 'MT-2040', quantity: 20, unit: 'lb', unitPrice: 4.25, total: 85 },
      { description: 'Paper napkins 1/8 fold', sku: 'PK-3310', quantity: 2, unit: 'case', unitPrice: 38, total: 76 },
      { description: 'Dish soap concentrate', sku: 'CL-0420', quantity: 3, unit: 'gal', unitPrice: 12.4, total: 37.2 },
      { description: 'Delivery fee', sku: null, quantity: 1, unit: 'ea', unitPrice: 15, total: 15 },
    ]);
  });

  test('confidences: entity confidence × 100 on the local engine’s 0–100 scale; overall as the local engine computes it', () => {
    const [inv] = documentToInvoices(invoiceDoc());
    expect(inv!.fieldConfidences).toEqual({
      vendorName: 98,
      invoiceNumber: 97,
      invoiceDate: 96,
      dueDate: 91,
      subtotal: 94,
      tax: 95,
      total: 99,
      currency: 88,
      lineItems: 90, // mean of 0.93, 0.92, 0.90, 0.88, 0.86
    });
    expect(inv!.confidence).toBe(Math.round((98 + 97 + 96 + 99) / 4));
  });

  test('a document without invoice entities yields no invoice; one without text or entities is unreadable', () => {
    const doc = invoiceDoc();
    expect(documentToInvoices({ ...doc, entities: doc.entities!.filter((e) => e.type === 'receiver_name') })).toEqual([]);
    expect(() => assertReadable({ text: '', pages: [], entities: [] })).toThrow(UnreadableDocumentError);
    expect(() => assertReadable(null)).toThrow(UnreadableDocumentError);
    expect(() => assertReadable(doc)).not.toThrow();
    expect(pageCountOf(doc)).toBe(2);
  });

  test('fallbacks: currency from the amounts’ money values, then from the text; missing fields are null with 0', () => {
    const doc = invoiceDoc();
    const withoutCurrency = { ...doc, entities: doc.entities!.filter((e) => e.type !== 'currency') };
    const [a] = documentToInvoices(withoutCurrency);
    expect(a).toMatchObject({ currency: 'USD' });
    expect(a!.fieldConfidences.currency).toBe(99); // the total's confidence: its moneyValue gave the code

    const textOnly = {
      text: 'Rechnung Nr. 7781\nMüller Getränke GmbH\nGesamt 1.234,50 €\nUSt-IdNr. DE123456789',
      pages: [{ pageNumber: 1 }],
      entities: [
        { type: 'supplier_name', mentionText: 'Müller Getränke\nGmbH', confidence: 0.8 },
        { type: 'total_amount', mentionText: '1.234,50 €', confidence: 0.7 },
        { type: 'invoice_date', mentionText: '05.03.2024', confidence: 0.75 },
      ],
    };
    const [b] = documentToInvoices(textOnly);
    expect(b).toMatchObject({
      vendorName: 'Müller Getränke GmbH',
      total: 1234.5,
      invoiceDate: '2024-03-05',
      currency: 'EUR',
      invoiceNumber: null,
      dueDate: null,
      subtotal: null,
      tax: null,
      lineItems: [],
    });
    expect(b!.fieldConfidences).toMatchObject({ vendorName: 80, total: 70, invoiceDate: 75, invoiceNumber: 0, dueDate: 0, lineItems: 0 });
    expect(b!.fieldConfidences.currency).toBeGreaterThan(0);
  });

  test('as the client decodes it: int64 as strings, oneof markers, defaults filled in', () => {
    const decoded: DocAiDocument = {
      text: 'x',
      pages: [],
      entities: [
        {
          type: 'total_amount',
          mentionText: '',
          confidence: 0.9,
          properties: [],
          normalizedValue: { text: '', moneyValue: { currencyCode: 'GBP', units: '-12', nanos: -500000000 }, structuredValue: 'moneyValue' } as never,
        },
        {
          type: 'line_item',
          mentionText: '',
          confidence: 0,
          normalizedValue: null,
          properties: [
            { type: 'line_item/quantity', mentionText: '2.5 kg', confidence: 0.8, properties: [], normalizedValue: null },
            { type: 'description', mentionText: 'Flour', confidence: 0.6, properties: [], normalizedValue: null },
          ],
        },
      ],
    };
    const [inv] = documentToInvoices(decoded);
    expect(inv).toMatchObject({ total: -12.5, currency: 'GBP', lineItems: [{ description: 'Flour', quantity: 2.5, unit: null, total: null }] });
    expect(inv!.fieldConfidences.lineItems).toBe(70); // no line confidence: the mean of its properties'
    expect(inv!.pages).toEqual([1]);
  });
});

describe('Expense Parser document → ExtractedReceiptFields', () => {
  test('every field, payment method from payment_type and the card’s last four digits', () => {
    const receipt = documentToReceipt(expenseDoc());
    expect(receipt).toEqual({
      merchantName: "LUIGI'S TRATTORIA",
      receiptDate: '2024-05-18',
      subtotal: 30.25,
      tax: 2.68,
      tip: 6,
      total: 38.93,
      currency: 'USD', // no currency entity: the total's moneyValue currency code
      paymentMethod: { type: 'credit', cardBrand: 'Visa', last4: '4417' },
      lineItems: [
        { description: 'Margherita pizza', sku: null, quantity: 1, unit: null, unitPrice: null, total: 14.5 },
        { description: 'Caesar salad', sku: null, quantity: 1, unit: null, unitPrice: null, total: 9.75 },
        { description: 'Sparkling water', sku: null, quantity: 2, unit: null, unitPrice: null, total: 6 },
      ],
      confidence: Math.round((95 + 97 + 98 * 2) / 4),
      fieldConfidences: {
        merchantName: 95,
        receiptDate: 97,
        subtotal: 92,
        tax: 94,
        tip: 90,
        total: 98,
        currency: 98,
        lineItems: 89, // mean of 0.91, 0.89, 0.87
      },
    });
    expect(pageCountOf(expenseDoc())).toBe(1);
  });

  test('cash, a debit card, nothing at all', () => {
    const doc = expenseDoc();
    const withPayment = (...entities: Array<{ type: string; mentionText: string; confidence: number }>) =>
      documentToReceipt({
        ...doc,
        entities: [...doc.entities!.filter((e) => !['payment_type', 'credit_card_last_four_digits'].includes(e.type!)), ...entities],
      });
    expect(withPayment({ type: 'payment_type', mentionText: 'CASH', confidence: 0.9 }).paymentMethod).toEqual({ type: 'cash', cardBrand: null, last4: null });
    expect(
      withPayment(
        { type: 'payment_type', mentionText: 'Debit Mastercard', confidence: 0.9 },
        { type: 'credit_card_last_four_digits', mentionText: 'XXXX 0042', confidence: 0.9 },
      ).paymentMethod,
    ).toEqual({
      type: 'debit',
      cardBrand: 'Mastercard',
      last4: '0042',
    });
    expect(withPayment().paymentMethod).toEqual({ type: 'unknown', cardBrand: null, last4: null });
    const empty = documentToReceipt({ text: 'blurred', pages: [{}], entities: [] });
    expect(empty).toMatchObject({ merchantName: null, receiptDate: null, total: null, lineItems: [], confidence: 0 });
    expect(Object.values(empty.fieldConfidences).every((c) => c === 0)).toBe(true);
  });
});
