// Idle reading workers leave after a while and take their memory (OCR models, buffers) with them; the next document
// starts a fresh worker.

import { afterAll, expect, it } from 'vitest';
import { createDocumentReader } from '../../../src/extraction/reader.ts';
import { makeTextPdf } from '../../fixtures/reading-fixtures.ts';

const reader = createDocumentReader({ size: 2, idleReleaseMs: 300 });
afterAll(() => reader.close());

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('releases idle workers and starts a fresh one for the next document', async () => {
  const pdf = await makeTextPdf([
    [
      { text: 'SUPPLIER LTD', x: 72, y: 72 },
      { text: 'TOTAL 12.00', x: 72, y: 100 },
    ],
  ]);
  const first = await reader.read(pdf, 'invoice');
  expect(first.pages[0]!.words.map((w) => w.text)).toContain('SUPPLIER');
  expect(reader.pool.workers).toBeGreaterThan(0);
  await until('the idle worker to leave', () => reader.pool.workers === 0);
  const again = await reader.read(pdf, 'invoice');
  expect(again.pages[0]!.words.map((w) => w.text)).toContain('TOTAL');
  expect(reader.pool.replacedWorkers).toBe(0);
});
