import { describe, expect, it } from 'vitest';
import { detectDecimalSeparator, findAmounts, parseAmount } from '../../../src/extraction/fields/amounts.ts';
import { detectCurrency } from '../../../src/extraction/fields/currency.ts';
import { findDates, inferDayFirst, parseDate } from '../../../src/extraction/fields/dates.ts';
import { groupLines } from '../../../src/extraction/fields/layout.ts';
import { idAsPrinted } from '../../../src/extraction/fields/numbers.ts';
import { detectPaymentMethod } from '../../../src/extraction/fields/payment.ts';
import type { PageText } from '../../../src/extraction/types.ts';

describe('dates', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['05.03.2024', '2024-03-05'],
    ['05/03/2024', '2024-03-05'],
    ['5 March 2024', '2024-03-05'],
    ['5 mars 2024', '2024-03-05'],
    ['5. März 2024', '2024-03-05'],
    ['Mar 5, 2024', '2024-03-05'],
    ['2024.03.05', '2024-03-05'],
    ['05-MAR-2024', '2024-03-05'],
    ['02/Jan/2017 10:49', '2017-01-02'],
    ['11. Juli 2014', '2014-07-11'],
    ['February 17, 2026', '2026-02-17'],
    ['14. 05. 2022', '2022-05-14'],
    ['31/01/22', '2022-01-31'],
    ['Rechnung Nr. 7 vom 05.06.2018', '2018-06-05'],
    ['Facture n° 7 le 5 juin 2018', '2018-06-05'],
    ['1er mars 2018', '2018-03-01'],
    ['5 de junio de 2018', '2018-06-05'],
    ['5 giugno 2018', '2018-06-05'],
    ['5 juni 2018', '2018-06-05'],
    ['5 de junho de 2018', '2018-06-05'],
    ['12 dicembre 2019', '2019-12-12'],
    ['3 mei 2020', '2020-05-03'],
  ])('%s → %s', (text, iso) => expect(parseDate(text)).toBe(iso));

  it('ignores OCR noise that is no valid date when inferring the day/month order', () => {
    expect(inferDayFirst('0/52/5858\n03.11.2022')).toBe(true);
    expect(inferDayFirst('03/25/2022\n03.11.2022')).toBe(false);
  });

  it('resolves ambiguous day/month with the hints', () => {
    expect(parseDate('03/05/24', { dayFirst: false })).toBe('2024-03-05');
    expect(parseDate('03/05/24', { dayFirst: true })).toBe('2024-05-03');
    expect(findDates('03/05/24')[0]?.ambiguous).toBe(true);
  });

  it('does not read a month inside another word', () => {
    expect(findDates('Qty 2 Main 15')).toEqual([]);
  });

  it('reads the day order from the language when no date decides: US English month first, European day first', () => {
    expect(inferDayFirst('Invoice date 11/03/2026  Total USD 40.00  Austin, TX 78701', ['en'])).toBe(false);
    expect(inferDayFirst('Rechnungsdatum 11/03/2026', ['de'])).toBe(true);
    expect(inferDayFirst('Invoice date 11/03/2026  London', ['en'])).toBe(true);
    expect(inferDayFirst('Invoice date 11/03/2026  Total USD 40.00  due 11/25/2026', ['en'])).toBe(false);
  });

  it('infers day-first from other unambiguous dates, month-first from US evidence', () => {
    expect(inferDayFirst('Date 03/05/2024 Delivery 25/05/2024')).toBe(true);
    expect(inferDayFirst('Date 03/05/2024 Ship 05/25/2024')).toBe(false);
    expect(inferDayFirst('Total USD 12.00 on 03/05/2024')).toBe(false);
  });
});

describe('amounts', () => {
  it.each([
    ['1,234.56', 1234.56],
    ['1.234,56', 1234.56],
    ['1 234,56', 1234.56],
    ['1234,56', 1234.56],
    ['-12.00', -12],
    ['12.00-', -12],
    ['(12.00)', -12],
    ['RM 10.60', 10.6],
    ['€ 1.005,55', 1005.55],
    ['12,00 EUR', 12],
    ['3. 90', 3.9],
    ['1O.5O', 10.5],
    ["1'234.56", 1234.56],
    ['CHF 1’234.50', 1234.5],
    ['1.234,56 €', 1234.56],
    ['12,00-', -12],
    ['-12,00', -12],
    ['USD 1,234.00', 1234],
    ['1 234,56 EUR', 1234.56],
  ])('%s → %s', (text, value) => expect(parseAmount(text)).toBe(value));

  it('skips dates, times and percentages', () => {
    expect(findAmounts('31/01/2022 12:37 20,00% 104,90').map((a) => a.value)).toEqual([104.9]);
  });

  it('decides the decimal separator per document', () => {
    expect(detectDecimalSeparator('100,00 4,90 104,90')).toBe(',');
    expect(detectDecimalSeparator('Subtotal 1,250.00 Tax 100.00')).toBe('.');
    expect(parseAmount('1.250', ',')).toBe(1250);
    expect(parseAmount('1.250', '.')).toBe(1.25);
    expect(detectDecimalSeparator('Total 100', ',')).toBe(',');
  });
});

describe('ids read by OCR', () => {
  it('puts back look-alike letters and digits where the run says which they are', () => {
    expect(idAsPrinted('To08938')).toBe('T008938');
    expect(idAsPrinted('2024-O117l')).toBe('2024-01171');
    expect(idAsPrinted('1NV-91324')).toBe('INV-91324');
    // Letters of a prefix, and runs where letters are most, stay as read.
    expect(idAsPrinted('OR-12345')).toBe('OR-12345');
    expect(idAsPrinted('B1A-7')).toBe('B1A-7');
    expect(idAsPrinted('RE2024-118')).toBe('RE2024-118');
  });
});

describe('currency', () => {
  it('maps symbols and codes, needs context for $ and returns null without evidence', () => {
    expect(detectCurrency('TOTAL RM 10.60').currency).toBe('MYR');
    expect(detectCurrency('Total 12,00 €').currency).toBe('EUR');
    expect(detectCurrency('Total $12.00').currency).toBeNull();
    expect(detectCurrency('Total $12.00  Toronto, Ontario  HST').currency).toBe('CAD');
    expect(detectCurrency('Total 12.00').currency).toBeNull();
    expect(detectCurrency('Amount due USD 40.00').currency).toBe('USD');
  });
});

describe('payment method', () => {
  it('detects cards with brand and last 4, and cash', () => {
    expect(detectPaymentMethod('VISA ************1234 APPROVED')).toEqual({ type: 'credit', cardBrand: 'Visa', last4: '1234' });
    expect(detectPaymentMethod('VISA ****¥4417 17.05')).toMatchObject({ cardBrand: 'Visa', last4: '4417' });
    expect(detectPaymentMethod('MasterCard XXXX XXXX XXXX 9876')).toMatchObject({ cardBrand: 'Mastercard', last4: '9876' });
    expect(detectPaymentMethod('KOPĀ EUR 3.90\nKARTE 3.90').type).toBe('credit');
    expect(detectPaymentMethod('SKAIDRA NAUDA 5.00 ATLIKUMS 1.10')).toEqual({ type: 'cash', cardBrand: null, last4: null });
    expect(detectPaymentMethod('DEBIT CARD ****4321').type).toBe('debit');
    expect(detectPaymentMethod('CASH 20.00 CHANGE 2.00').type).toBe('cash');
    expect(detectPaymentMethod('thank you').type).toBe('unknown');
  });
});

describe('layout', () => {
  it('groups skewed words into lines sorted by x', () => {
    const p: PageText = {
      page: 1,
      width: 500,
      height: 200,
      source: 'ocr',
      ms: 1,
      words: [
        { text: 'TOTAL', x: 10, y: 50, width: 40, height: 12, confidence: 90 },
        { text: 'Item', x: 10, y: 20, width: 30, height: 12, confidence: 90 },
        { text: '12.50', x: 200, y: 54, width: 40, height: 12, confidence: 80 },
        { text: '3.00', x: 200, y: 23, width: 30, height: 12, confidence: 90 },
        { text: 'EUR', x: 60, y: 52, width: 30, height: 12, confidence: 90 },
      ],
    };
    expect(groupLines(p).map((l) => l.text)).toEqual(['Item   3.00', 'TOTAL EUR   12.50']);
  });
});
