// The generated corpus is an instrument: the same seed must give the same documents, its ground truth must add up,
// and what the truth says must be printed on the page (readable from the text layer, nothing off the page or drawn
// over other text), and so must the other numbers and dates the manifest says it prints (issue 48).

import { describe, expect, it } from 'vitest';
import { formatters } from '../../corpus/design.ts';
import { generateDocument, planCorpus } from '../../corpus/generate.ts';
import { LAYOUTS, NARROW } from '../../corpus/layouts.ts';
import { LANGUAGES } from '../../corpus/locales/index.ts';
import { VOCABULARIES } from '../../corpus/vocabulary/index.ts';
import { openPdf } from '../../src/extraction/pdf-text.ts';

const cents = (n: number) => Math.round(n * 100);
/** Words without case, accents or punctuation. */
const words = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The text layer as lines (words of about the same baseline, left to right). */
async function textLines(pdf: Uint8Array): Promise<string[]> {
  const doc = await openPdf(pdf);
  const lines: string[] = [];
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      const words = [...(await doc.readTextPage(p)).words].sort((a, b) => a.y - b.y || a.x - b.x);
      let cur: typeof words = [];
      for (const w of words) {
        if (cur.length && Math.abs(w.y - cur[0]!.y) > 2)
          (lines.push(
            cur
              .sort((a, b) => a.x - b.x)
              .map((x) => x.text)
              .join(' '),
          ),
            (cur = []));
        cur.push(w);
      }
      if (cur.length)
        lines.push(
          cur
            .sort((a, b) => a.x - b.x)
            .map((x) => x.text)
            .join(' '),
        );
    }
  } finally {
    await doc.close();
  }
  return lines;
}

describe('corpus generator', () => {
  it('gives the same bytes and ground truth for the same seed', async () => {
    const [doc] = planCorpus({ seed: 5, count: 1, layouts: ['multi-page'] });
    const a = await generateDocument(5, doc!);
    const b = await generateDocument(5, doc!);
    expect(Buffer.compare(a.pdf, b.pdf)).toBe(0);
    expect(a.entry).toEqual(b.entry);
    const other = await generateDocument(6, doc!);
    expect(other.entry.expected).not.toEqual(a.entry.expected);
  });

  it('draws labels by mode: the same truth in every mode, held-apart labels printed, the issue-14 words in classic', async () => {
    const plan = planCorpus({ seed: 12, count: LANGUAGES.length * LAYOUTS.length });
    let held = 0;
    for (const doc of plan.filter((d) => d.index % 4 === 0)) {
      const classic = await generateDocument(12, doc, 'classic');
      const heldApart = await generateDocument(12, doc, 'held-apart');
      const where = classic.entry.file;
      expect(heldApart.entry.expected, where).toEqual(classic.entry.expected);
      expect(classic.entry.labels, where).toBe('engine');
      expect(heldApart.entry.labels, where).toBe('held-apart');
      const locale = classic.truth.locale.labels;
      expect(locale.total, where).toContain(classic.entry.keyLabels.total);
      expect(locale.invoiceNumber, where).toContain(classic.entry.keyLabels.invoiceNumber);
      expect(
        VOCABULARIES[doc.language].key.total.map((l) => l.toUpperCase()),
        where,
      ).toContain(heldApart.entry.keyLabels.total!.toUpperCase());
      // What the manifest says is what the page prints (capitals or not).
      const text = (await textLines(new Uint8Array(heldApart.pdf))).join('\n').toUpperCase();
      expect(text, where).toContain(heldApart.entry.keyLabels.total!.toUpperCase());
      expect(heldApart.faults, where).toEqual([]);
    }
    for (const doc of plan.slice(0, 15)) if ((await generateDocument(12, doc)).entry.labels === 'held-apart') held++;
    expect(held).toBe(9);
  }, 120_000);

  it('draws a name shown only as a logo as paths: no text where it stands, every word of it in the text elsewhere', async () => {
    let logos = 0;
    for (const doc of planCorpus({ seed: 21, count: 42 })) {
      const g = await generateDocument(21, doc, 'held-apart');
      const where = g.entry.file;
      expect(g.logos.length > 0, where).toBe(g.entry.sellerName === 'logo');
      if (!g.logos.length) continue;
      logos++;
      const pdf = await openPdf(new Uint8Array(g.pdf));
      try {
        for (const b of g.logos) {
          const inside = (await pdf.readTextPage(b.page + 1)).words.filter((w) => {
            const [cx, cy] = [w.x + w.width / 2, w.y + w.height / 2];
            return cx > b.x && cx < b.x + b.w && cy > b.y && cy < b.y + b.h;
          });
          expect(
            inside.map((w) => w.text),
            where,
          ).toEqual([]);
        }
      } finally {
        await pdf.close();
      }
      const printedWords = new Set(words((await textLines(new Uint8Array(g.pdf))).join('\n')));
      for (const token of words(g.entry.expected.vendorName)) expect(printedWords.has(token), `${where}: vendor word ${token}`).toBe(true);
      expect(g.faults, where).toEqual([]);
    }
    expect(logos).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('covers every language and layout family pair in 7 × 14 consecutive documents, with consistent totals printed on the page', async () => {
    const plan = planCorpus({ seed: 11, count: LANGUAGES.length * LAYOUTS.length });
    expect(new Set(plan.map((d) => `${d.language}/${d.layout}`)).size).toBe(LANGUAGES.length * LAYOUTS.length);
    for (const doc of plan) {
      const { pdf, entry, truth: t, faults } = await generateDocument(11, doc);
      const where = `${entry.file}`;
      expect(faults, where).toEqual([]);
      // Arithmetic, in cents.
      const items = t.lines.reduce((s, l) => s + cents(l.amount), 0);
      expect(items, where).toBe(cents(t.itemsTotal));
      const adjusted = items + t.adjustments.reduce((s, a) => s + (a.kind === 'charge' ? 1 : -1) * cents(a.amount), 0);
      expect(adjusted, where).toBe(cents(t.subtotal));
      for (const x of t.taxes) expect(cents(x.tax), where).toBe(Math.round(cents(x.base) * x.rate));
      expect(cents(t.subtotal) + cents(t.tax), where).toBe(cents(t.total));
      expect(cents(t.total) - cents(t.prepaid), where).toBe(cents(t.amountDue));
      expect(
        entry.expected.lineItems.reduce((s, l) => s + cents(l.amount), 0),
        where,
      ).toBe(items);
      expect(entry.expected.invoiceDate, where).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Printed: the number as given, every word of the seller's name, and the amounts.
      const lines = await textLines(new Uint8Array(pdf));
      const text = lines.join('\n');
      expect(text, where).toContain(entry.expected.invoiceNumber);
      const f = formatters(t);
      expect(text, `${where}: date`).toContain(f.date(t.date));
      if (t.due.kind === 'date') expect(text, `${where}: due date`).toContain(f.date(t.due.date));
      const printedWords = new Set(words(text));
      for (const token of words(entry.expected.vendorName)) expect(printedWords.has(token), `${where}: vendor word ${token}`).toBe(true);
      const digitLines = lines.map((l) => l.replace(/\D/g, ''));
      const printed = (n: number) => digitLines.some((l) => l.includes(String(Math.abs(cents(n)))));
      expect(printed(t.total), `${where}: total`).toBe(true);
      expect(printed(t.subtotal), `${where}: subtotal`).toBe(true);
      if (t.taxes.length === 1) expect(printed(t.tax), `${where}: tax`).toBe(true);
      for (const l of t.lines) expect(printed(l.amount), `${where}: line ${l.description}`).toBe(true);
      // The other numbers and dates the manifest names are printed; an invoice (not a till receipt) has 5–15 and 2–5.
      const { numbers, dates } = entry.distractors;
      const tokens = new Set(text.split(/\s+/));
      for (const [kind, value] of Object.entries(numbers))
        for (const token of value.split(/\s+/)) expect(tokens.has(token), `${where}: ${kind} ${value}`).toBe(true);
      for (const [kind, iso] of Object.entries(dates)) {
        const [y, m, d] = iso.split('-').map(Number);
        // A long date may wrap in a narrow cell: then each of its words is printed.
        const date = f.date({ y: y!, m: m!, d: d! });
        expect(text.includes(date) || date.split(' ').every((w) => tokens.has(w)), `${where}: ${kind} ${date}`).toBe(true);
      }
      if (NARROW.has(doc.layout)) continue;
      // An earlier invoice the document refers to comes on top of those.
      const otherNumbers = Object.keys(numbers).filter((k) => !k.startsWith('gtin') && k !== 'precedingInvoice').length;
      const otherDates = Object.keys(dates).filter((k) => k !== 'precedingInvoiceDate').length;
      expect(otherNumbers, `${where}: other numbers`).toBeGreaterThanOrEqual(5);
      expect(otherNumbers, `${where}: other numbers`).toBeLessThanOrEqual(15);
      expect(otherDates, `${where}: other dates`).toBeGreaterThanOrEqual(2);
      expect(otherDates, `${where}: other dates`).toBeLessThanOrEqual(5);
    }
  }, 120_000);
});
