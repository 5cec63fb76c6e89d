import { afterAll, beforeAll, expect, test } from 'vitest';
import { equipmentInvoice, makeInvoicePdf } from '../fixtures/invoice-documents.ts';
import { makeBlankPdf } from '../fixtures/reading-fixtures.ts';
import { http, startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 13, point 5, over HTTP with the default budgets: while one partner's two 780 KB PDFs of 2,000 blank pages
// are being read, another partner's one-page invoice (0.1–0.4 s alone) took 54 s. It must not wait for them.
let t: TestApp;
let busy: { apiKey: string };
let other: { apiKey: string };
let blank2000: Buffer;
let invoice: Buffer;

const upload = (apiKey: string, file: Buffer) => {
  const fd = new FormData();
  fd.append('file', new Blob([file]), 'document.pdf');
  return http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': apiKey }, body: fd });
};

beforeAll(async () => {
  t = await startTestApp();
  [busy, other] = await Promise.all([t.createPartner({ tier: 'extraction' }), t.createPartner({ tier: 'extraction' })]);
  [blank2000, invoice] = await Promise.all([makeBlankPdf(2000), makeInvoicePdf(equipmentInvoice)]);
  // Two uploads at once start both reading workers (pdf.js and the OCR engine load once per worker).
  for (const res of await Promise.all([upload(other.apiKey, invoice), upload(other.apiKey, invoice)])) expect(res.status).toBe(201);
});
afterAll(() => t?.close());

test('a one-page invoice is not held up by another partner’s two 2,000-blank-page PDFs', async () => {
  let t0 = performance.now();
  expect((await upload(other.apiKey, invoice)).status).toBe(201);
  const aloneMs = performance.now() - t0;
  t0 = performance.now();
  const blanks = [0, 1].map(() => upload(busy.apiKey, blank2000).then((res) => ({ res, ms: performance.now() - t0 })));
  // Let both large uploads reach the reading pool first.
  await new Promise((resolve) => setTimeout(resolve, 150));
  const sent = performance.now() - t0;
  const small = await upload(other.apiKey, invoice);
  const invoiceMs = performance.now() - t0 - sent;
  const done = await Promise.all(blanks);
  console.log(
    `one-page invoice: ${Math.round(invoiceMs)} ms (${Math.round(aloneMs)} ms alone); blank PDFs: ${done.map((d) => Math.round(d.ms)).join(' and ')} ms`,
  );

  expect(small.status).toBe(201);
  expect(small.body).toMatchObject({ invoiceNumber: equipmentInvoice.number, status: 'processed' });
  // The large ones were still in flight when the invoice was sent.
  for (const d of done) expect(d.ms).toBeGreaterThan(sent);
  // 0.35–0.7 s on a busy 2-core machine (before: 54 s).
  expect(invoiceMs).toBeLessThan(3000);
  for (const { res } of done) {
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toBe('no text could be read from the document (pages 51–2000 were not read (limit 50 pages per document); 50 blank pages skipped)');
  }
});
