// OASIS UBL 2.1 Invoice and CreditNote (Peppol BIS Billing 3.0, XRechnung UBL, EN 16931).
import type { ExtractedLineItem } from '../types.ts';
import type { ParsedEInvoice } from './types.ts';
import { decimal, inCurrency, isoDay, oneLine, readableUnit, sum, unitPrice } from './values.ts';
import { at, child, kids, textAt, type XNode } from './xml-tree.ts';

export function parseUbl(root: XNode): ParsedEInvoice {
  const creditNote = root.local === 'CreditNote';
  const currency = textAt(root, 'DocumentCurrencyCode');
  const totals = child(root, 'LegalMonetaryTotal');
  const amount = (local: string) => decimal(inCurrency(kids(totals, local), currency));
  // A second TaxTotal may state the tax in the accounting currency (without a breakdown).
  const taxTotals = kids(root, 'TaxTotal');
  const taxTotal = inCurrency(
    taxTotals.map((t) => child(t, 'TaxAmount')).filter((n): n is XNode => n !== null),
    currency,
  );
  const party = at(root, 'AccountingSupplierParty/Party');
  return {
    syntax: 'ubl',
    profile: textAt(root, 'CustomizationID'),
    typeCode: textAt(root, creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    creditNoteRoot: creditNote,
    vendorName: oneLine(textAt(party, 'PartyName/Name') ?? textAt(party, 'PartyLegalEntity/RegistrationName')),
    invoiceNumber: textAt(root, 'ID'),
    invoiceDate: isoDay(textAt(root, 'IssueDate')),
    dueDate:
      isoDay(textAt(root, 'DueDate')) ??
      kids(root, 'PaymentMeans')
        .map((m) => isoDay(textAt(m, 'PaymentDueDate')))
        .find(Boolean) ??
      null,
    currency: currency?.toUpperCase() ?? null,
    sums: {
      lineTotal: amount('LineExtensionAmount'),
      allowances: amount('AllowanceTotalAmount'),
      charges: amount('ChargeTotalAmount'),
      taxBasis: amount('TaxExclusiveAmount'),
      taxTotal: decimal(taxTotal),
      taxBreakdown: sum(taxTotals.flatMap((t) => kids(t, 'TaxSubtotal')).map((s) => decimal(child(s, 'TaxAmount')))),
      grandTotal: amount('TaxInclusiveAmount'),
      prepaid: amount('PrepaidAmount'),
      due: amount('PayableAmount'),
    },
    lineItems: kids(root, creditNote ? 'CreditNoteLine' : 'InvoiceLine').map(line),
  };
}

function line(item: XNode): ExtractedLineItem {
  const product = child(item, 'Item');
  const quantity = child(item, 'InvoicedQuantity', 'CreditedQuantity');
  const price = child(item, 'Price');
  return {
    description: oneLine(textAt(product, 'Name') ?? textAt(product, 'Description')),
    sku: textAt(product, 'SellersItemIdentification/ID') ?? textAt(product, 'StandardItemIdentification/ID') ?? textAt(product, 'BuyersItemIdentification/ID'),
    quantity: decimal(quantity),
    unit: readableUnit(quantity?.attrs.unitCode),
    unitPrice: unitPrice(decimal(child(price, 'PriceAmount')), decimal(child(price, 'BaseQuantity'))),
    total: decimal(child(item, 'LineExtensionAmount')),
  };
}
