import { describe, expect, it } from 'vitest';
import { documentLines } from '../../../src/extraction/fields/layout.ts';
import { chooseReceiptTotals, receiptAmountFinder } from '../../../src/extraction/fields/receipt-totals.ts';
import { cleanMerchant } from '../../../src/extraction/fields/receipt-merchant.ts';
import { extractReceiptFields } from '../../../src/extraction/fields/receipt.ts';
import { fixNameOcr, nameCandidates, pickName } from '../../../src/extraction/fields/vendor.ts';
import { page } from './helpers.ts';

const ocr = (lines: string[]) => [page(lines, { source: 'ocr' })];
const totals = (lines: string[]) => chooseReceiptTotals(documentLines(ocr(lines)), '.');

describe('receipt totals', () => {
  it('skips a tax rate between a label and its amount (also "%" read as "7")', () => {
    const find = receiptAmountFinder('.');
    expect(find('-A 21.00% 0.49').map((a) => a.value)).toEqual([0.49]);
    expect(find('-A 21.007   2.31').map((a) => a.value)).toEqual([2.31]);
    expect(find('-A 21. 00   1.66').map((a) => a.value)).toEqual([1.66]);
    expect(find('   0. 07').map((a) => a.value)).toEqual([0.07]);
  });

  it('reads an amount whose glued currency prefix OCR misread ("fM3.00")', () => {
    expect(receiptAmountFinder('.')('   fM3.00').map((a) => a.value)).toEqual([3]);
  });

  it('reads a decimal point OCR dropped to a space, and Z misread for 2 inside a number', () => {
    const find = receiptAmountFinder('.');
    expect(find('   9 59').map((a) => a.value)).toEqual([9.59]);
    expect(find('   1Z. 15').map((a) => a.value)).toEqual([12.15]);
    expect(find('   12 items 100').map((a) => a.value)).toEqual([12, 100]);
  });

  it('reads "Tots! Amt Payable" as a total label', () => {
    expect(
      totals(['EXPRINT SDN BHD', 'Lamination A4   2.00   4.24', 'Tots! Amt Payable :   8.50', 'Paid Amount:   100.00', 'Change:   91.50']).total?.value,
    ).toBe(8.5);
  });

  it('derives the total from the VAT breakdown when the total line is unreadable', () => {
    const t = totals([
      'SIA "Maiznica"',
      'Maize 1 x 1.20 =',
      '1.20A',
      'Piens 1 x 1.60',
      '1.60A',
      'KOPA EUR   e. 8U',
      'BEZ PUN-A 21.00%   2.31',
      'PUN-A 21.00%   0.49',
      '06.05.2022 17:23',
    ]);
    expect(t).toMatchObject({ total: { value: 2.8 }, subtotal: { value: 2.31 }, tax: { value: 0.49 }, sumOk: true });
  });

  it('takes "AR PVN" (incl. VAT) as a total and cross-checks it with BEZ PVN + PVN', () => {
    const t = totals(['AS "Vilciens"', 'Bilete 1 x 2.10   2.10', 'BEZ PVN-C 12.00%   1.88', 'PVN-C 12.00%   0.22', 'AR PVN-C 12.00%   2.10']);
    expect(t.total?.value).toBe(2.1);
    expect(t.sumOk).toBe(true);
  });

  it('adds the rounding adjustment when the total label has no readable value', () => {
    const t = totals([
      'MAKAN RESTAURANT',
      'NASI 1 40.00',
      'TEH 3 24.00',
      'Sub TOTAL   64.00',
      'GST 6%   3.84',
      'ROUNDING ADJ   0.01',
      'NET TOTAL',
      'Cash   100.00',
      'CHANGE   32.15',
    ]);
    expect(t.total?.value).toBe(67.85);
  });

  it('takes the amount of the next line for a lone total label when no change was given', () => {
    const t = totals(['PETROL STATION', 'PREPAY CHIT', 'TOTAL AMOUNT', 'CASH   RM   6.00', 'Thank You']);
    expect(t.total?.value).toBe(6);
  });

  it('rejects a "total" below an item amount (a tax summary total)', () => {
    const t = totals(['PHARMACY SDN BHD', 'VITAMIN C   1   4.90   4.90', 'PLASTER   1   6.60   6.60', 'TOTAL   12.15', 'GST SUMMARY', 'TAX TOTAL:   0.69']);
    expect(t.total?.value).toBe(12.15);
  });

  it('reads "total" misread by OCR and ignores "included in total"', () => {
    const t = totals(['MEDIQ SDN BHD', 'LIPID 1   165.00', 'Tatal Inclusive GST:   165.00', 'GST @6% included in total   RM 9.34']);
    expect(t.total?.value).toBe(165);
  });
});

describe('receipt merchant', () => {
  it('fixes OCR confusions in legal forms and upper-case words only', () => {
    expect(fixNameOcr('Sla "DZ"')).toBe('SIA "DZ"');
    expect(fixNameOcr('HANSA MALAYSIA S0N BHD')).toBe('HANSA MALAYSIA SDN BHD');
    expect(fixNameOcr('MEl LET RESTAURANT')).toBe('MEI LET RESTAURANT');
    expect(fixNameOcr('MR. D.1.Y. (M) SDN BHD')).toBe('MR. D.I.Y. (M) SDN BHD');
    expect(fixNameOcr('Hotel Alpina 2001')).toBe('Hotel Alpina 2001');
  });

  it('prefers the legal form with its quoted name over a logo line and separator noise', () => {
    const lines = documentLines(
      ocr(['AAAAAAAAAAAAAAAAAAAA', 'Lumo', 'Lapu iela 5, Jelgava', '“a SIA "LUMO™ PVN LV 43603012558', 'Jurid. adr: Rigas iela 4', 'DOK. #00024792']),
    );
    expect(pickName(lines, 'receipt').name).toBe('SIA "LUMO');
  });

  it('keeps a letters-only name line whole across a wide OCR gap', () => {
    const lines = documentLines(ocr(['ANANNABRARNARNAN', 'SIA A. G. A.   LTD’', 'PVN LV 41702004458', 'Jelgava, Katolu iela 7']));
    expect(pickName(lines, 'receipt').name).toBe('SIA A. G. A. LTD’');
  });

  it('reads the S-word before BHD as SDN, keeping SDN and SONS as printed', () => {
    expect(cleanMerchant('SWIFT LINE SLII BHD')).toBe('SWIFT LINE SDN BHD');
    expect(cleanMerchant('ACE DISTRIBUTION 5D BHD')).toBe('ACE DISTRIBUTION SDN BHD');
    expect(cleanMerchant('Sanjung Realiti S0n. Bhd.')).toBe('Sanjung Realiti Sdn Bhd.');
    expect(cleanMerchant('Sanjung Realiti Sdn. Bhd.')).toBe('Sanjung Realiti Sdn. Bhd.');
    expect(cleanMerchant('LIM & SONS BHD')).toBe('LIM & SONS BHD');
  });

  it('separates SIA glued to a name that lost its opening quote, and joins a letter-spaced quoted name', () => {
    expect(fixNameOcr('SIAKALNS 2001"PUN LV43603015785')).toBe('SIA KALNS 2001"PUN LV43603015785');
    expect(fixNameOcr('SIA "L APSAS” PUN LV 43603012558')).toBe('SIA "LAPSAS” PUN LV 43603012558');
    expect(fixNameOcr('SIA "A UN B"')).toBe('SIA "A UN B"');
    expect(fixNameOcr('SIAULIAI')).toBe('SIAULIAI');
  });

  it('joins a name the printer split over two lines, not a brand line above a whole legal name', () => {
    const split = extractReceiptFields(ocr(['NORTH HILL', 'STATIONERY SDN. BHD', 'CO REG NO: 21003B-K', '55 JALAN TUN, 10300 PENANG', 'TOTAL   12.00']));
    expect(split.merchantName).toBe('NORTH HILL STATIONERY SDN. BHD');
    const trading = extractReceiptFields(ocr(['KLM TOOLS HARDWARE', 'TRADING', '002458685-T', '13-1, Jalan PJU 5/10', 'TOTAL   12.00']));
    expect(trading.merchantName).toBe('KLM TOOLS HARDWARE TRADING');
    const words = extractReceiptFields(ocr(['WESTERN HILLS', 'OFFICE SUPPLY SDN.BHD', 'CO REG NO: 21003B-K', 'TOTAL   12.00']));
    expect(words.merchantName).toBe('WESTERN HILLS OFFICE SUPPLY SDN. BHD');
    // A brand line printed larger over a legal name of its own words stays out of it.
    const pages = ocr(['CITY MILK', 'J&K HOLDINGS SDN BHD (1191015-W)', 'LOT-18A-2, BERJAYA TIMES SQUARE', 'TOTAL   12.00']);
    for (const w of pages[0]!.words.filter((w) => w.y === 40)) Object.assign(w, { y: 38, height: 12 });
    expect(extractReceiptFields(pages).merchantName).toBe('J&K HOLDINGS SDN BHD');
    const owner = extractReceiptFields(ocr(['OLD TOWN', 'OWN BY: ACME FOODS SDN BHD', 'LOT 5, JALAN SS2', 'TOTAL   12.00']));
    expect(owner.merchantName).toBe('ACME FOODS SDN BHD');
    const title = extractReceiptFields(ocr(['TAX INVOICE', 'STATIONERY SDN BHD', '55 JALAN TUN, 10300 PENANG', 'TOTAL   12.00']));
    expect(title.merchantName).toBe('STATIONERY SDN BHD');
  });

  it('keeps a whole legal name apart from a brand line above it, and joins a name that visibly wraps', () => {
    const brand = extractReceiptFields(ocr(["Rosie's Grill & Bar CITY", 'K.L.M Dining Sdn Bhd (123456-P)', 'Tel:03-5550 1234', 'TOTAL   12.00']));
    expect(brand.merchantName).toBe('K.L.M Dining Sdn Bhd');
    const open = extractReceiptFields(ocr(['GARDEN HOME TOOLS &', 'LIGHTING', 'NO.12, JALAN BESAR', 'TOTAL   12.00']));
    expect(open.merchantName).toBe('GARDEN HOME TOOLS & LIGHTING');
  });

  it('reads a name past a till number before it and a registration number after it', () => {
    const r = extractReceiptFields(ocr(['40912233', '#000417 MAPLE (M) Sdn Bhd', 'COMPANY NO(777001-A)', 'SUNRISE MART, CITY MALL', 'TOTAL   12.00']));
    expect(r.merchantName).toBe('MAPLE (M) Sdn Bhd');
    const reg = extractReceiptFields(ocr(['KOALA C0. (M) BHD. (555123-K)', '3 FLOOR, KOALA TAMAN JAYA SC', 'TOTAL   12.00']));
    expect(reg.merchantName).toBe('KOALA CO. (M) BHD.');
    // A company-number label with its number is no name at all.
    const labelled = nameCandidates(documentLines(ocr(['PINE CAFE', 'OWN BY: RIVERSIDE FOODS SDN BHD', 'CO.NO. (555777-T)', 'TOTAL   12.00'])), 'receipt');
    expect(labelled.map((c) => c.name).filter((n) => /CO\.NO/.test(n))).toEqual([]);
  });

  it('does not reject an upper-case store name holding a word like TOTAL', () => {
    const r = extractReceiptFields(ocr(['AIRE TOTAL KENITRA', 'AUTOROUTE RABAT MEKNES', '15000 KHEMISSET', 'CAFE CREME   12.00   2   24.00', 'TOTAL   24.00']));
    expect(r.merchantName).toBe('AIRE TOTAL KENITRA');
  });

  it('reads OCR digits for the letters they stand for in a name, ordinals and numbers left alone', () => {
    expect(cleanMerchant('CITY 1MAGE SDN BHD')).toBe('CITY IMAGE SDN BHD');
    expect(cleanMerchant('1ST AVENUE SDN BHD')).toBe('1ST AVENUE SDN BHD');
    expect(cleanMerchant('KOALA C0. (M) BHD.')).toBe('KOALA CO. (M) BHD.');
    expect(cleanMerchant('SHOP 2001 A10')).toBe('SHOP 2001 A10');
    // An initial OCR set apart from the "&" after it.
    expect(extractReceiptFields(ocr(['3   & KAY NOODLE CAFE', '(009988776-Q)', 'TOTAL   12.00'])).merchantName).toBe('B & KAY NOODLE CAFE');
  });

  it("puts back trade words OCR misread, in the name's own case, and leaves other words and plurals alone", () => {
    expect(cleanMerchant('GREENLEAF FHARHACY SDN BHD')).toBe('GREENLEAF PHARMACY SDN BHD');
    expect(cleanMerchant('Kim Lee & Comfany')).toBe('Kim Lee & Company');
    expect(cleanMerchant('SUNRISE HANDCRAFT')).toBe('SUNRISE HANDICRAFT');
    expect(cleanMerchant('PETRO STATIONS')).toBe('PETRO STATIONS');
    expect(cleanMerchant('TIDES BOOKS')).toBe('TIDES BOOKS');
    expect(cleanMerchant('HANSA MAL AYSIA SDN BHD')).toBe('HANSA MALAYSIA SDN BHD');
    expect(cleanMerchant('KOTA PETROL STAT ION')).toBe('KOTA PETROL STATION');
    expect(cleanMerchant('SUPER MARKET HARIAN')).toBe('SUPER MARKET HARIAN');
  });

  it('mends BHD split or cut short, drops "OWNED BY" and what follows a registration number', () => {
    expect(cleanMerchant('SEA PEARL RESTAURANT SDN B H')).toBe('SEA PEARL RESTAURANT SDN BHD');
    expect(cleanMerchant('Lime Trading Sdn Bh d (524463-X)')).toBe('Lime Trading Sdn Bhd');
    expect(cleanMerchant('OWNED BY: HILLTOP FOODS SDN BHD')).toBe('HILLTOP FOODS SDN BHD');
    expect(cleanMerchant('DAILYNEWS RETAIL SB (306295-X) FKA OLD STORES SB')).toBe('DAILYNEWS RETAIL SB');
  });

  it('ends a name at its closing legal form, keeps a short number of the name, and reads a digit initial as a letter', () => {
    expect(cleanMerchant('NINE GRAMS TEA CO. THE CENTRAL MALL')).toBe('NINE GRAMS TEA CO.');
    expect(cleanMerchant('BRENNER GMBH & CO. KG')).toBe('BRENNER GMBH & CO. KG');
    expect(cleanMerchant('ORCHID 2001 SDN BHD (123456-X)')).toBe('ORCHID 2001 SDN BHD');
    expect(cleanMerchant('SIA "LAPSAS 2001')).toBe('SIA "LAPSAS 2001');
    expect(cleanMerchant('8 & Q HARDWARE')).toBe('B & Q HARDWARE');
    expect(cleanMerchant('M & 5 TRADING')).toBe('M & S TRADING');
    expect(cleanMerchant('LOT 3 & 5 TRADING')).toBe('LOT 3 & 5 TRADING');
  });

  it('takes a quoted legal name whose line ends in a VAT number, and no abbreviation glued to a word as a legal form', () => {
    const vat = extractReceiptFields(ocr(['veikals DARZS', 'Riga iela 1, Jelgava', 'SIA"LAPSAS 2001PUN LU40003015785', 'TOTAL   12.00']));
    expect(vat.merchantName).toBe('SIA"LAPSAS 2001');
    const kg = extractReceiptFields(
      ocr(['SIMPLIFIED TAX INVOICE', 'HOCK SENG & COMPANY', 'REG. NO:00168397-H', 'NO.54, JALAN IPOH,', 'KG.BATU,', 'TOTAL   12.00']),
    );
    expect(kg.merchantName).toBe('HOCK SENG & COMPANY');
  });

  it('prefers the company that runs the shop over a trade name line above it', () => {
    const r = extractReceiptFields(
      ocr(['SIMPLIFIED TAX INVOICE', 'BB PHARMACY', 'HILLSIDE HEALTHCARE SDN BHD', '1118258-K', 'B-8, JALAN SS1/4', 'TOTAL   12.00']),
    );
    expect(r.merchantName).toBe('HILLSIDE HEALTHCARE SDN BHD');
  });

  it('cuts a name with a trade word in it at its closing legal form, not at the trade word', () => {
    const r = extractReceiptFields(
      ocr(['THE CAFE (PENANG) SDN BHD (12345K)', '12 JALAN MERAH, 10300 PENANG', 'TOTAL   12.00', 'THANK YOU FOR VISITING THE CAFE']),
    );
    expect(r.merchantName).toBe('THE CAFE (PENANG) SDN BHD');
  });

  it('joins a name wrapped over three lines when each line goes on with the one above', () => {
    const r = extractReceiptFields(ocr(['PINE LEAF HARDWARE', 'ENTERPRISE (BANDAR', 'UTAMA) SDN BHD', '822737-X', 'NO.17-G, JALAN INDAH', 'TOTAL   12.00']));
    expect(r.merchantName).toBe('PINE LEAF HARDWARE ENTERPRISE (BANDAR UTAMA) SDN BHD');
    // A shop name with a trade word of its own over a company line that does not go on from it stays out.
    const shop = extractReceiptFields(ocr(['GOLDEN CAFE', 'MEGA FOODS SDN BHD', '822737-X', 'NO.17-G, JALAN INDAH', 'TOTAL   12.00']));
    expect(shop.merchantName).toBe('MEGA FOODS SDN BHD');
  });

  it("never takes a cashier's or customer's name for the merchant", () => {
    const cashier = extractReceiptFields(ocr(['Cashier:   ANNA LEE   12:30', 'Kedai Runcit Baru', 'TOTAL   12.00']));
    expect(cashier.merchantName).toBe('Kedai Runcit Baru');
    const customer = extractReceiptFields(ocr(['Served by   MARIA', 'Harbour View Bistro', 'TOTAL   12.00']));
    expect(customer.merchantName).toBe('Harbour View Bistro');
    const below = extractReceiptFields(ocr(['Kasieris:', 'JANIS OZOLS', 'SIA "Rits"', 'TOTAL   12.00']));
    expect(below.merchantName).toBe('SIA "Rits"');
    const joined = extractReceiptFields(ocr(['Cashier:', 'JOHN TAN', 'RITZ TRADING SDN BHD', 'TOTAL   12.00']));
    expect(joined.merchantName).toBe('RITZ TRADING SDN BHD');
    const named = extractReceiptFields(ocr(['Name:   JOHN TAN   12:30', 'Lucky Star Kitchen', 'TOTAL   12.00']));
    expect(named.merchantName).toBe('Lucky Star Kitchen');
  });

  it('joins no line above a quoted name after its legal form', () => {
    expect(extractReceiptFields(ocr(['VEIKALS LUMO', 'SIA "Lumo"', 'Rigas iela 4', 'TOTAL   12.00'])).merchantName).toBe('SIA "Lumo"');
  });

  it('reads a zero inside a word of letters as O, and leaves numbers alone', () => {
    expect(cleanMerchant('K0PITIAM HARM0NY 2001')).toBe('KOPITIAM HARMONY 2001');
    expect(cleanMerchant('Rest0ran Seri A10')).toBe('Restoran Seri A10');
  });

  it('drops OCR specks around a name and reads a garbled S-word before BHD with a mark in it as SDN', () => {
    expect(cleanMerchant('| HILLVIEW FOODS SDN BHD')).toBe('HILLVIEW FOODS SDN BHD');
    expect(cleanMerchant('e Kedai Runcit Baru i')).toBe('Kedai Runcit Baru');
    expect(cleanMerchant('PLAN B')).toBe('PLAN B');
    expect(cleanMerchant('SWIFT RAIL S(.1: BHD')).toBe('SWIFT RAIL SDN BHD');
    expect(cleanMerchant('CORNER STORE BHD')).toBe('CORNER STORE BHD');
  });

  it('reads 5 and 8 between capitals of a long word as S and B, and A/S before a quoted name as AS', () => {
    expect(cleanMerchant('ME5RA RI8BON SDN BHD')).toBe('MESRA RIBBON SDN BHD');
    expect(cleanMerchant('K8 HOTEL 5TAR')).toBe('K8 HOTEL 5TAR');
    expect(cleanMerchant('A/S "Rigas Udens"')).toBe('AS "Rigas Udens"');
    expect(cleanMerchant('NORDLYS A/S')).toBe('NORDLYS A/S');
  });

  it('starts the header after the end of the previous slip at the top of a scan', () => {
    const r = extractReceiptFields(
      ocr([
        '...THANK YOU AND DO VISIT US AGAIN',
        'Cashier [ANNA]   Machine [003]',
        '[19/06/17] [11:37]',
        'NORTH STAR CASH & CARRY',
        '(1365663-P)',
        'No.1 Jalan SS 9/1, 47300 PJ',
        'TAX INVOICE',
        'TOTAL   45.00',
      ]),
    );
    expect(r.merchantName).toBe('NORTH STAR CASH & CARRY');
  });
});
