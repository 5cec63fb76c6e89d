import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeReceiptImage } from '../fixtures/invoice-documents.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// No request waits behind another one's OCR: OCR runs in worker threads, so /healthz is answered while four
// OCR uploads are still in flight. (Latency figures are measured by `npm run bench`, not asserted here.)
let t: TestApp;
let apiKey: string;
let image: Buffer;

beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey } = await t.createPartner({ tier: 'extraction' }));
  const lines = Array.from({ length: 24 }, (_, i) => `Item number ${i + 1} of the order      ${(i + 1.25).toFixed(2)}`);
  image = await makeReceiptImage(['NORTHWIND MARKET', 'Date: 2024-05-02', ...lines, 'TOTAL 330.00']);
});
afterAll(() => t?.close());

// Four OCR uploads take a few seconds alone and over 30 s on a shared machine under load: the bound is generous.
test('/healthz answers while 4 OCR uploads run', { timeout: 120_000 }, async () => {
  let finished = 0;
  const uploads = Array.from({ length: 4 }, async () => {
    const fd = new FormData();
    fd.append('file', new Blob([image]), 'r.png');
    const res = await fetch(`${t.base}/api/v1/partner/receipts/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
    finished++;
    return res.status;
  });
  const answered: number[] = [];
  // Ask repeatedly while the uploads are running; each answer records how many uploads had finished by then.
  while (finished < 4 && answered.length < 200) {
    const res = await fetch(`${t.base}/healthz`);
    expect(res.status).toBe(200);
    answered.push(finished);
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(await Promise.all(uploads)).toEqual([201, 201, 201, 201]);
  // Several health checks were answered before the first OCR upload completed.
  expect(answered.filter((n) => n === 0).length).toBeGreaterThanOrEqual(3);
});
