// UN/CEFACT Cross Industry Invoice: ZUGFeRD 2.x / Factur-X (MINIMUM, BASIC WL, BASIC, EN 16931, EXTENDED) and
// XRechnung CII (D16B, rsm:CrossIndustryInvoice), and ZUGFeRD 1.0 (rsm:CrossIndustryDocument). The two versions
// name the same places differently ("A|B" below: the D16B name first, then ZUGFeRD 1.0's).
import type { ExtractedLineItem } from '../types.ts';
import type { ParsedEInvoice } from './types.ts';
import { decimal, inCurrency, isoDay, oneLine, readableUnit, sum, unitPrice } from './values.ts';
import { at, child, kids, textAt, type XNode } from './xml-tree.ts';

export function parseCii(root: XNode): ParsedEInvoice {
  const doc = child(root, 'ExchangedDocument', 'HeaderExchangedDocument');
  const tx = child(root, 'SupplyChainTradeTransaction', 'SpecifiedSupplyChainTradeTransaction');
  const agreement = child(tx, 'ApplicableHeaderTradeAgreement', 'ApplicableSupplyChainTradeAgreement');
  const settlement = child(tx, 'ApplicableHeaderTradeSettlement', 'ApplicableSupplyChainTradeSettlement');
  const summation = child(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation', 'SpecifiedTradeSettlementMonetarySummation');
  const currency = textAt(settlement, 'InvoiceCurrencyCode');
  const amount = (local: string) => decimal(inCurrency(kids(summation, local), currency));
  const seller = child(agreement, 'SellerTradeParty');
  return {
    syntax: 'cii',
    profile: textAt(root, 'ExchangedDocumentContext|SpecifiedExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID'),
    typeCode: textAt(doc, 'TypeCode'),
    creditNoteRoot: false,
    vendorName: oneLine(textAt(seller, 'Name') ?? textAt(seller, 'SpecifiedLegalOrganization/TradingBusinessName')),
    invoiceNumber: textAt(doc, 'ID'),
    invoiceDate: isoDay(textAt(doc, 'IssueDateTime/DateTimeString')),
    // The first payment term that names a due date (several terms may be given, e.g. instalments).
    dueDate:
      kids(settlement, 'SpecifiedTradePaymentTerms')
        .map((t) => isoDay(textAt(t, 'DueDateDateTime/DateTimeString')))
        .find(Boolean) ?? null,
    currency: currency?.toUpperCase() ?? null,
    sums: {
      lineTotal: amount('LineTotalAmount'),
      allowances: amount('AllowanceTotalAmount'),
      charges: amount('ChargeTotalAmount'),
      taxBasis: amount('TaxBasisTotalAmount'),
      taxTotal: amount('TaxTotalAmount'),
      taxBreakdown: sum(kids(settlement, 'ApplicableTradeTax').map((t) => decimal(child(t, 'CalculatedAmount')))),
      grandTotal: amount('GrandTotalAmount'),
      prepaid: amount('TotalPrepaidAmount'),
      due: amount('DuePayableAmount'),
    },
    lineItems: kids(tx, 'IncludedSupplyChainTradeLineItem').filter(carriesAmount).map(line),
  };
}

/**
 * EXTENDED profiles may nest lines: a sub-line names its parent (its amount is part of the parent's), and
 * information-only lines carry no amount of the invoice. Only the lines that add up to the line total count.
 */
function carriesAmount(item: XNode): boolean {
  const ref = child(item, 'AssociatedDocumentLineDocument');
  return !textAt(ref, 'ParentLineID') && textAt(ref, 'LineStatusReasonCode')?.toUpperCase() !== 'INFORMATION';
}

function line(item: XNode): ExtractedLineItem {
  const product = child(item, 'SpecifiedTradeProduct');
  const agreement = child(item, 'SpecifiedLineTradeAgreement', 'SpecifiedSupplyChainTradeAgreement');
  const price = child(agreement, 'NetPriceProductTradePrice') ?? child(agreement, 'GrossPriceProductTradePrice');
  const billed = at(item, 'SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery/BilledQuantity');
  const lineSum = at(
    item,
    'SpecifiedLineTradeSettlement|SpecifiedSupplyChainTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation',
  );
  return {
    description: oneLine(textAt(product, 'Name') ?? textAt(product, 'Description')),
    sku: textAt(product, 'SellerAssignedID') ?? textAt(product, 'GlobalID') ?? textAt(product, 'BuyerAssignedID'),
    quantity: decimal(billed),
    unit: readableUnit(billed?.attrs.unitCode),
    unitPrice: unitPrice(decimal(child(price, 'ChargeAmount')), decimal(child(price, 'BasisQuantity'))),
    total: decimal(inCurrency(kids(lineSum, 'LineTotalAmount'), null)),
  };
}
