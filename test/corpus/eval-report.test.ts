// The eval's scoring rules and tables (eval/extraction): what counts as right, how calibration bands are filled.

import { describe, expect, it } from 'vitest';
import { mistakeOf } from '../../eval/extraction/mistakes.ts';
import { buildReport } from '../../eval/extraction/report.ts';
import { scoreDocument, type DocResult, type Entry } from '../../eval/extraction/run.ts';
import { bandOf, fieldMatches, scoreLines } from '../../eval/extraction/score.ts';

const line = (description: string, total: number, quantity: number | null = 1, unitPrice: number | null = total) => ({
  description,
  sku: null,
  unit: null,
  quantity,
  unitPrice,
  total,
});

describe('eval scoring', () => {
  it('compares names loosely, dates and amounts exactly, and an expected null only with nothing', () => {
    expect(fieldMatches('vendorName', 'Müller Haustechnik GmbH', 'MULLER HAUSTECHNIK G.M.B.H.')).toBe(false);
    expect(fieldMatches('vendorName', 'Müller Haustechnik GmbH', 'muller  haustechnik gmbh')).toBe(true);
    expect(fieldMatches('vendorName', 'Edelweiß Großhandel e.K.', 'EDELWEISS GROSSHANDEL E.K.')).toBe(true);
    expect(fieldMatches('invoiceDate', '2024-06-05', '2024-05-06')).toBe(false);
    expect(fieldMatches('total', 119, 119.004)).toBe(true);
    expect(fieldMatches('total', 119, 119.01)).toBe(false);
    expect(fieldMatches('dueDate', null, null)).toBe(true);
    expect(fieldMatches('dueDate', null, '2024-07-05')).toBe(false);
    expect(fieldMatches('dueDate', '2024-07-05', null)).toBe(false);
  });

  it('matches lines one to one by amount and half the description words', () => {
    const s = scoreLines(
      [
        { description: 'Olivenöl extra vergine 5 l', quantity: 2, unitPrice: 30, amount: 60 },
        { description: 'Bergkäse', amount: 60 },
      ],
      [line('Olivenol extra 5 l', 60, 2, 30), line('Versand', 60), line('Bergkase', 12)],
    );
    expect(s).toMatchObject({ expected: 2, extracted: 3, matched: 1, quantityRight: 1, quantityLabelled: 1, unitPriceRight: 1 });
  });

  it('puts confidences into bands and counts only values the engine returned', () => {
    expect([0, 49.5, 50, 69, 70, 89.9, 90, 100].map(bandOf)).toEqual(['0-49', '0-49', '50-69', '50-69', '70-89', '70-89', '90-100', '90-100']);
    const doc = (file: string, ok: boolean, got: unknown, confidence: number, language: string): DocResult => ({
      file,
      kind: 'invoice',
      language,
      layout: 'boxed-table',
      lines: null,
      linesConfidence: null,
      confidence,
      keyRight: ok,
      pages: [],
      fields: { total: { expected: 10, got, ok, confidence } },
    });
    const r = buildReport([doc('a', true, 10, 95, 'de'), doc('b', false, 11, 92, 'de'), doc('c', false, null, 0, 'fr')]);
    expect(r.fields.invoice?.total).toEqual({ n: 3, correct: 1, accuracy: 1 / 3 });
    const total = r.calibration.invoice!.find((c) => c.name === 'total')!;
    expect(total.bands['90-100']).toEqual({ n: 2, correct: 1, accuracy: 0.5 });
    expect(total.bands['0-49']!.n).toBe(0);
    expect(r.calibration.invoice!.find((c) => c.name === 'extractionConfidence')!.bands['0-49']!.n).toBe(1);
    expect(r.byLanguage.map((g) => [g.key, g.header.correct, g.header.n])).toEqual([
      ['de', 1, 2],
      ['fr', 0, 1],
    ]);
  });

  it('names what a wrong value was: another number, date, name or amount the document prints, or nothing', () => {
    const e: Entry = {
      file: 'a.pdf',
      kind: 'invoice',
      expected: {
        vendorName: 'Nordlicht Feinkost GmbH',
        invoiceNumber: 'RE-2024-001',
        invoiceDate: '2024-06-05',
        dueDate: '2024-07-05',
        subtotal: 100,
        tax: 19,
        total: 119,
      },
      distractors: {
        numbers: { customerNumber: 'KD-4711', gtin2: '4012345678901' },
        dates: { printDate: '2024-06-07' },
        names: { buyer: 'Hotel Edelweiß GmbH', buyerAddress: 'Hauptstraße 5 80331 München' },
        amounts: { itemsTotal: 105, allowance: 5 },
      },
    };
    expect(mistakeOf('invoiceNumber', 'KD 4711', e)).toBe('customerNumber');
    expect(mistakeOf('invoiceNumber', '4012345678901', e)).toBe('gtin');
    expect(mistakeOf('invoiceNumber', 'Nr. RE-2024-001', e)).toBe('number with more');
    expect(mistakeOf('invoiceNumber', null, e)).toBe('nothing');
    expect(mistakeOf('invoiceNumber', '80331', e)).toBe('part of an address or phone');
    expect(mistakeOf('invoiceNumber', 'EUR 119', e)).toBe('an amount');
    expect(mistakeOf('invoiceDate', '2024-06-07', e)).toBe('printDate');
    expect(mistakeOf('invoiceDate', '2024-07-05', e)).toBe('dueDate');
    expect(mistakeOf('invoiceDate', '2024-05-06', e)).toBe('day and month swapped');
    expect(mistakeOf('dueDate', '2024-07-07', e)).toBe('terms counted from printDate');
    expect(mistakeOf('vendorName', 'HOTEL EDELWEISS GMBH', e)).toBe('buyer');
    expect(mistakeOf('vendorName', 'Sold by: Nordlicht Feinkost GmbH', e)).toBe('a label kept before the name');
    expect(mistakeOf('vendorName', 'Nordlicht Feinkost', e)).toBe('part of the name');
    expect(mistakeOf('total', 100, e)).toBe('subtotal');
    expect(mistakeOf('total', 105, e)).toBe('itemsTotal');
    expect(mistakeOf('subtotal', 110, e)).toBe('items total with some adjustments');
    expect(mistakeOf('subtotal', 81, e)).toBe('a lower amount less the tax');
    expect(mistakeOf('total', 7, e)).toBe('other');
  });

  it('splits generated documents by whether the engine’s lists hold any of their key labels, measured at scoring time', () => {
    const base: Entry = { file: 'a.pdf', kind: 'invoice', expected: { total: 119 }, labels: 'held-apart' };
    // Nothing read (no pages): every field wrong, as "nothing".
    const known = scoreDocument({ ...base, keyLabels: { total: 'Grand Total' } }, []);
    const unseen = scoreDocument({ ...base, file: 'b.pdf', keyLabels: { total: 'Grand total amount' } }, []);
    expect([known.labels, unseen.labels]).toEqual(['engine', 'held-apart']);
    const r = buildReport([known, unseen]);
    expect(r.byLabels.map((g) => [g.key, g.documents])).toEqual([
      ['engine', 1],
      ['held-apart', 1],
    ]);
    expect(r.mistakes.all?.total).toEqual({ nothing: 2 });
    expect(r.mistakes['held-apart']?.total).toEqual({ nothing: 1 });
  });
});
