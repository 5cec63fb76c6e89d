import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { equipmentInvoice, makeInvoicePdf } from '../fixtures/invoice-documents.ts';
import { startTestApp } from '../helpers/app.ts';

// A server told to stop (SIGTERM in a rolling deploy behind a load balancer) finishes the requests it has already
// started before it stops serving them — those Apollo Server answers (a multipart upload to /graphql) included.

const BOUNDARY = 'shutdown-drain-boundary';
const part = (name: string, value: string) => Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
const filePart = (name: string, bytes: Buffer) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"; filename="invoice.pdf"\r\ncontent-type: application/pdf\r\n\r\n`),
    bytes,
    Buffer.from('\r\n'),
  ]);

test('closing the server lets a /graphql upload already in flight finish, then refuses new connections', async () => {
  const t = await startTestApp();
  try {
    const partner = await t.createPartner();
    const query = 'mutation($file: Upload!) { uploadInvoice(file: $file) { invoice { id status } } }';
    const body = Buffer.concat([
      part('operations', JSON.stringify({ query, variables: { file: null } })),
      part('map', JSON.stringify({ 0: ['variables.file'] })),
      filePart('0', await makeInvoicePdf(equipmentInvoice)),
      Buffer.from(`--${BOUNDARY}--\r\n`),
    ]);
    const request = http.request({
      host: '127.0.0.1',
      port: t.app.port,
      path: '/graphql',
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': body.length,
        'x-api-key': partner.apiKey,
        'apollo-require-preflight': 'true',
      },
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      request.on('error', reject);
    });
    // The request has begun (headers and the start of its body are on the server) when the server is told to stop.
    request.write(body.subarray(0, 200));
    await sleep(300);
    const closing = t.app.close();
    await sleep(300);
    request.end(body.subarray(200));

    const { status, text } = await answer;
    expect({ status, body: JSON.parse(text) }).toMatchObject({ status: 200, body: { data: { uploadInvoice: { invoice: { id: expect.any(String) } } } } });
    expect(JSON.parse(text).errors).toBeUndefined();
    await closing;
    await expect(fetch(`${t.base}/healthz`)).rejects.toThrow();
  } finally {
    await t.close();
  }
});
