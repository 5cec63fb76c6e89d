import { describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../../../src/extraction/fields/invoice.ts';
import { DOCS } from './multilingual-docs.ts';

describe.each(DOCS)('$name', ({ pages, expected }) => {
  const [inv] = extractInvoiceFields(pages);
  it('reads the number, the dates and the amounts', () => {
    expect({
      number: inv!.invoiceNumber,
      date: inv!.invoiceDate,
      due: inv!.dueDate,
      subtotal: inv!.subtotal,
      tax: inv!.tax,
      total: inv!.total,
      currency: inv!.currency,
    }).toEqual({
      number: expected.invoiceNumber,
      date: expected.invoiceDate,
      due: expected.dueDate ?? null,
      subtotal: expected.subtotal,
      tax: expected.tax,
      total: expected.total,
      currency: expected.currency,
    });
  });
  it('reads the seller, not the buyer', () => expect(inv!.vendorName).toBe(expected.vendorName));
  it('reads the line table', () => expect(inv!.lineItems.map((l) => [l.description, l.total])).toEqual(expected.lines));
});
