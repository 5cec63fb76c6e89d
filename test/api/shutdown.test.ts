import net from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeScannedInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// A stop while a handler runs for a client that already left: Fastify's close waits for open connections only, so the
// server has to wait for the handler itself before it closes the reader and the database under it.
let t: TestApp;
let scanned: Buffer;

beforeAll(async () => {
  [t, scanned] = await Promise.all([startTestApp(), makeScannedInvoicePdf(produceInvoice)]);
});
afterAll(async () => {
  await t?.close();
});

test('an upload whose client hung up during shutdown is extracted and recorded before the server stops', async () => {
  const { apiKey } = await t.createPartner({ tier: 'embed' });
  const form = new FormData();
  form.append('file', new Blob([scanned], { type: 'application/pdf' }), 'scanned.pdf');
  const request = new Request(`${t.base}/api/v1/partner/invoices/upload`, { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());

  const socket = net.connect(t.app.port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    [
      'POST /api/v1/partner/invoices/upload HTTP/1.1',
      `host: 127.0.0.1:${t.app.port}`,
      `x-api-key: ${apiKey}`,
      `content-type: ${request.headers.get('content-type')}`,
      `content-length: ${body.length}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(body);

  // The handler has recorded the upload and is reading it (OCR: seconds) when the client leaves and the stop begins.
  const invoices = () => t.database.db.selectFrom('invoices').select(['status']).execute();
  const deadline = Date.now() + 20_000;
  while ((await invoices()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(await invoices()).toEqual([{ status: 'processing' }]);
  socket.destroy();
  await t.app.close();

  expect(await invoices()).toEqual([{ status: 'processed' }]);
}, 120_000); // an OCR'd page (with the model's first load) takes 20–30 s when the machine is busy with other test files
