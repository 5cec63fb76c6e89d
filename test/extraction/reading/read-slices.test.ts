import { describe, expect, it } from 'vitest';
import { DocumentProgress, type SliceResult } from '../../../src/extraction/read-slices.ts';
import type { PageText } from '../../../src/extraction/types.ts';

// The main thread's side of a document read in slices: what each slice may do, and the notes at the end.
const page = (n: number): PageText => ({ page: n, width: 595, height: 842, words: [], source: 'text-layer', ms: 1 });
const slice = (from: number, to: number, rest: Partial<SliceResult> = {}): SliceResult => ({
  numPages: 100,
  pages: Array.from({ length: to - from + 1 }, (_, i) => page(from + i)),
  next: to + 1,
  blank: 0,
  ocrd: 0,
  notOcrd: [],
  ms: 100,
  ...rest,
});

describe('DocumentProgress', () => {
  it('hands each slice what is left of the page, OCR and time budgets', () => {
    const p = new DocumentProgress('pdf', { maxPages: 20, maxOcrPages: 3, budgetMs: 1000 }, 300);
    expect(p.nextSlice()).toEqual({ fileType: 'pdf', from: 1, lastPage: 20, ocrLeft: 3, ocrForLast: true, untilMs: 300 });
    p.absorb(slice(1, 4, { ocrd: 2, ms: 800 }));
    expect(p.done).toBe(false);
    // 200 ms of the budget left, less the slowest page's 1 ms kept for the last page: less than a slice.
    expect(p.nextSlice()).toMatchObject({ from: 5, ocrLeft: 1, untilMs: 199 });
    // With one OCR'd page allowed, that page is the first one (nothing is kept for the last).
    expect(new DocumentProgress('pdf', { maxPages: 20, maxOcrPages: 1, budgetMs: 1000 }, 300).nextSlice()).not.toHaveProperty('ocrForLast');
  });

  it('keeps time for the last page: reads it next once the budget would not cover one more page and it', () => {
    const p = new DocumentProgress('pdf', { maxPages: 50, maxOcrPages: 10, budgetMs: 10_000 }, 300);
    const ocrPage = (n: number, ms: number) => ({ ...page(n), source: 'ocr' as const, ms });
    p.absorb(slice(1, 1, { numPages: 6, pages: [ocrPage(1, 2500)], ms: 2600 }));
    p.absorb(slice(2, 2, { numPages: 6, pages: [ocrPage(2, 3000)], ms: 3000 }));
    // 4.4 s left, the slowest page 3 s: page 3 and page 6 would not both fit.
    expect(p.done).toBe(false);
    expect(p.nextSlice()).toMatchObject({ from: 6 });
    p.absorb(slice(6, 6, { numPages: 6, pages: [ocrPage(6, 2900)], ms: 2900, next: null }));
    expect(p.done).toBe(true);
    const { pages, notes } = p.outcome();
    expect(pages.map((x) => x.page)).toEqual([1, 2, 6]);
    expect(notes).toEqual(['pages 3–5 were not read (limit 10 s of reading per document; the last page was read)']);
  });

  it('still reads the last page when the budget is spent before it, and only it', () => {
    const p = new DocumentProgress('pdf', { maxPages: 50, maxOcrPages: 10, budgetMs: 1000 }, 300);
    p.absorb(slice(1, 1, { numPages: 2, ms: 1500 }));
    expect(p.done).toBe(false);
    expect(p.nextSlice()).toMatchObject({ from: 2 });
    p.absorb(slice(2, 2, { numPages: 2, ms: 1500, next: null }));
    expect(p.outcome().notes).toEqual([]);
  });

  it('names what was left unread, in ranges and in the singular where it applies', () => {
    const p = new DocumentProgress('pdf', { maxPages: 10, maxOcrPages: 1, budgetMs: 1500 }, 300);
    p.absorb(slice(1, 4, { blank: 1, notOcrd: [3], ms: 700 }));
    p.absorb(slice(5, 7, { notOcrd: [5, 6, 7], ms: 900 }));
    // The budget is spent: the last page the page limit allows is still read.
    expect(p.nextSlice()).toMatchObject({ from: 10 });
    p.absorb(slice(10, 10, { ms: 100, next: null }));
    expect(p.done).toBe(true);
    const { pageCount, pages, notes } = p.outcome();
    expect(pageCount).toBe(100);
    expect(pages.map((x) => x.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 10]);
    expect(notes).toEqual([
      'pages 8–9 were not read (limit 1.5 s of reading per document; the last page was read)',
      'pages 11–100 were not read (limit 10 pages per document)',
      "pages 3, 5–7 were not OCR'd (limit 1 OCR'd pages per document)",
      '1 blank page skipped',
    ]);
  });

  it('has no notes for a document read whole, and says "page" for one page', () => {
    const whole = new DocumentProgress('pdf', { maxPages: 50, maxOcrPages: 10, budgetMs: 20_000 }, 300);
    whole.absorb(slice(1, 3, { numPages: 3, next: null }));
    expect(whole.outcome().notes).toEqual([]);
    const oneOver = new DocumentProgress('pdf', { maxPages: 2, maxOcrPages: 10, budgetMs: 20_000 }, 300);
    oneOver.absorb(slice(1, 2, { numPages: 3, next: null }));
    expect(oneOver.outcome().notes).toEqual(['page 3 was not read (limit 2 pages per document)']);
  });
});
