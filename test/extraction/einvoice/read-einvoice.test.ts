import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readEInvoiceXml } from '../../../src/extraction/einvoice/read-einvoice.ts';
import { ciiXml, einvoiceTotals, kitchenSupplyEInvoice, lineAmount, ublXml, type EInvoiceSpec } from '../../fixtures/einvoice-documents.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);
const read = (xml: string, name: string | null = 'factur-x.xml') => readEInvoiceXml(utf8(xml), name);

describe('CII (Factur-X / ZUGFeRD 2.x / XRechnung)', () => {
  test('reads the header, allowances and charges at several VAT rates, and the lines with readable units', () => {
    const spec = kitchenSupplyEInvoice;
    const t = einvoiceTotals(spec);
    const r = read(ciiXml(spec));
    expect(r.error).toBeNull();
    expect(r.einvoice).toMatchObject({
      syntax: 'cii',
      profile: 'urn:cen.eu:en16931:2017',
      creditNote: false,
      vendorName: 'Nordhafen Gastro Supply GmbH',
      invoiceNumber: 'FX-2026-0417',
      invoiceDate: '2026-04-17',
      dueDate: '2026-05-17',
      currency: 'EUR',
      // Tax basis = line total − allowances + charges, not the line total.
      subtotal: t.taxBasis,
      tax: t.tax,
      total: t.grandTotal,
      totalsProblems: [],
      linesProblem: null,
    });
    expect(t.breakdown.map((b) => b.rate).sort()).toEqual([19, 7]);
    expect(t.taxBasis).not.toBe(t.lineTotal);
    expect(r.einvoice!.lineItems).toEqual([
      { description: 'Chef knife 21 cm', sku: 'NK-210', quantity: 4, unit: 'pc', unitPrice: 38.5, total: 154 },
      // 45.00 per 5 litres: the price of one litre.
      { description: 'Olive oil extra virgin', sku: 'OO-5L', quantity: 6, unit: 'l', unitPrice: 9, total: 54 },
      { description: 'Kitchen towels', sku: null, quantity: 12, unit: 'pack', unitPrice: 2.95, total: 35.4 },
    ]);
  });

  test('total is the grand total, not the amount due after a prepayment', () => {
    const r = read(ciiXml({ ...kitchenSupplyEInvoice, prepaid: 100 }));
    const t = einvoiceTotals({ ...kitchenSupplyEInvoice, prepaid: 100 });
    expect(r.einvoice!.total).toBe(t.grandTotal);
    expect(r.einvoice!.amountDue).toBe(t.due);
    expect(t.due).not.toBe(t.grandTotal);
  });

  test('a MINIMUM profile (no lines) gives the header and totals', () => {
    const spec = { ...kitchenSupplyEInvoice, profile: 'urn:factur-x.eu:1p0:minimum' };
    const r = read(ciiXml(spec, { withoutLines: true }));
    expect(r.einvoice).toMatchObject({ profile: 'urn:factur-x.eu:1p0:minimum', total: einvoiceTotals(spec).grandTotal, lineItems: [], linesProblem: null });
  });

  test('a credit note (type 381) is negative: amounts, quantities and line totals; unit prices stay positive', () => {
    const r = read(ciiXml({ ...kitchenSupplyEInvoice, typeCode: '381', prepaid: 0 }));
    const t = einvoiceTotals(kitchenSupplyEInvoice);
    expect(r.einvoice).toMatchObject({ creditNote: true, typeCode: '381', subtotal: -t.taxBasis, tax: -t.tax, total: -t.grandTotal });
    expect(r.einvoice!.lineItems[0]).toMatchObject({ quantity: -4, unitPrice: 38.5, total: -154 });
  });

  test('ZUGFeRD 1.0 (CrossIndustryDocument) is read too', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
  <rsm:HeaderExchangedDocument><ram:ID>R-77</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20150301</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement><ram:SellerTradeParty><ram:Name>Papierwerk Süd KG</ram:Name></ram:SellerTradeParty></ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20150331</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementMonetarySummation>
        <ram:LineTotalAmount currencyID="EUR">100.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount currencyID="EUR">100.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">19.00</ram:TaxTotalAmount><ram:GrandTotalAmount currencyID="EUR">119.00</ram:GrandTotalAmount>
      </ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">10.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="KGM">10</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
      <ram:SpecifiedTradeProduct><ram:Name>Kraftpapier</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;
    expect(read(xml, 'ZUGFeRD-invoice.xml').einvoice).toMatchObject({
      vendorName: 'Papierwerk Süd KG',
      invoiceNumber: 'R-77',
      invoiceDate: '2015-03-01',
      dueDate: '2015-03-31',
      subtotal: 100,
      tax: 19,
      total: 119,
      lineItems: [{ description: 'Kraftpapier', quantity: 10, unit: 'kg', unitPrice: 10, total: 100 }],
    });
  });

  test('totals that do not add up are reported (the caller falls back to the text)', () => {
    const r = read(ciiXml(kitchenSupplyEInvoice, { grandTotal: 999.99 }));
    expect(r.einvoice!.totalsProblems).toEqual([expect.stringMatching(/grand total 999.99 is not its tax basis/)]);
  });

  test('an XML file declared ISO-8859-1 is decoded as such', () => {
    const xml = ciiXml({ ...kitchenSupplyEInvoice, seller: 'Müller Küchentechnik' }).replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    expect(readEInvoiceXml(Buffer.from(xml, 'latin1'), null).einvoice!.vendorName).toBe('Müller Küchentechnik');
  });

  test('binary attachments inside the XML (XRechnung) do not count against the size limit', () => {
    const pdf = 'A'.repeat(6 * 1024 * 1024);
    const xml = ciiXml(kitchenSupplyEInvoice).replace(
      '<ram:ApplicableHeaderTradeAgreement>',
      `<ram:ApplicableHeaderTradeAgreement><ram:AdditionalReferencedDocument><ram:IssuerAssignedID>T</ram:IssuerAssignedID><ram:AttachmentBinaryObject mimeCode="application/pdf" filename="t.pdf">${pdf}</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument>`,
    );
    expect(read(xml).einvoice!.invoiceNumber).toBe('FX-2026-0417');
  });
});

describe('UBL 2.1', () => {
  const spec: EInvoiceSpec = {
    number: 'UBL-5521',
    issueDate: '2026-02-03',
    dueDate: '2026-03-05',
    seller: 'Harbourside Linen Services',
    currency: 'GBP',
    lines: [
      { name: 'Tablecloth rental', sku: 'TC-1', quantity: 40, price: 3.2, vatRate: 20 },
      { name: 'Napkin laundering', quantity: 2, unitCode: 'DZN', price: 12, basisQuantity: 1, vatRate: 20 },
    ],
    charges: [{ amount: 15, vatRate: 20, reason: 'Collection' }],
  };

  test('an Invoice: the party name, totals from LegalMonetaryTotal, lines', () => {
    const t = einvoiceTotals(spec);
    const r = read(ublXml(spec), null);
    expect(r.einvoice).toMatchObject({
      syntax: 'ubl',
      vendorName: 'Harbourside Linen Services',
      invoiceNumber: 'UBL-5521',
      invoiceDate: '2026-02-03',
      dueDate: '2026-03-05',
      currency: 'GBP',
      subtotal: t.taxBasis,
      tax: t.tax,
      total: t.grandTotal,
      creditNote: false,
      totalsProblems: [],
    });
    expect(r.einvoice!.lineItems).toEqual([
      { description: 'Tablecloth rental', sku: 'TC-1', quantity: 40, unit: 'ea', unitPrice: 3.2, total: lineAmount(spec.lines[0]!) },
      { description: 'Napkin laundering', sku: null, quantity: 2, unit: 'dozen', unitPrice: 12, total: 24 },
    ]);
  });

  test('a CreditNote is negative and takes its due date from the payment means', () => {
    const t = einvoiceTotals(spec);
    const r = read(ublXml(spec, { creditNote: true }), null);
    expect(r.einvoice).toMatchObject({ creditNote: true, total: -t.grandTotal, tax: -t.tax, dueDate: '2026-03-05' });
    expect(r.einvoice!.lineItems[1]).toMatchObject({ quantity: -2, total: -24 });
  });
});

describe('refused XML', () => {
  test('not well-formed', () => {
    const r = read(ciiXml(kitchenSupplyEInvoice).replace('</rsm:ExchangedDocument>', ''));
    expect(r.einvoice).toBeNull();
    expect(r.error).toMatch(/not well-formed XML/);
  });

  test('another root element, or the right name in another namespace', () => {
    expect(read('<?xml version="1.0"?><Order xmlns="urn:x"><ID>1</ID></Order>').error).toMatch(/root element \(Order\) is not a CII or UBL invoice/);
    expect(read('<Invoice xmlns="urn:example:not-ubl"><ID>1</ID></Invoice>').error).toMatch(/not a CII or UBL invoice/);
  });

  test('an external entity (XXE) is refused before parsing: the file it names is never read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'xxe-'));
    const secret = path.join(dir, 'secret.txt');
    writeFileSync(secret, 'TOP-SECRET-CONTENT');
    const xml = ciiXml(kitchenSupplyEInvoice)
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY xxe SYSTEM "file://${secret}">]>`,
      )
      .replace('Nordhafen Gastro Supply GmbH', '&xxe;');
    const r = read(xml);
    expect(r.einvoice).toBeNull();
    expect(r.error).toMatch(/document type definitions \(DOCTYPE\) are not allowed/);
    expect(JSON.stringify(r)).not.toContain('TOP-SECRET');
  });

  test('entity expansion (billion laughs) is refused too, and an undeclared entity is an error, not an expansion', () => {
    const lol = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol2;</Invoice>`;
    expect(read(lol).error).toMatch(/DOCTYPE/);
    expect(read(ciiXml(kitchenSupplyEInvoice).replace('Nordhafen Gastro Supply GmbH', '&xxe;')).error).toMatch(/not well-formed/);
  });

  test('an XML that names neither an invoice number nor a total', () => {
    const xml = ciiXml(kitchenSupplyEInvoice)
      .replace(/<ram:ID>FX-2026-0417<\/ram:ID>/, '')
      .replace(/<ram:GrandTotalAmount>[^<]*<\/ram:GrandTotalAmount>/, '')
      .replace(/<ram:TaxTotalAmount[^>]*>[^<]*<\/ram:TaxTotalAmount>/, '');
    const r = read(xml.replace(/<ram:ApplicableTradeTax>[\s\S]*?<\/ram:ApplicableTradeTax>/g, ''));
    expect(r.error).toMatch(/neither an invoice number nor a total/);
  });
});
