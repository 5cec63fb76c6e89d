import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main as graphqlMain } from '../../examples/graphql-client/main.ts';
import { main as restMain } from '../../examples/rest-client/main.ts';
import { equipmentInvoice, invoiceTotals, makeInvoicePdf, paperGoodsInvoice, produceInvoice } from '../fixtures/invoice-documents.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Issue 18, point 7: the typed clients of examples/ (graphql-codegen's client preset; openapi-typescript +
// openapi-fetch) upload an invoice to a real server and read it back — in this process through their main(), and as
// the command a partner runs (tsx, PARTNER_API_URL / PARTNER_API_KEY). `npm run typecheck` compiles them.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

let t: TestApp;
let connection: { baseUrl: string; apiKey: string };

beforeAll(async () => {
  t = await startTestApp();
  const partner = await t.createPartner({ tier: 'storage' });
  connection = { baseUrl: t.base, apiKey: partner.apiKey };
});
afterAll(() => t?.close());

const pdfFile = async (spec: typeof produceInvoice, name: string) => new File([await makeInvoicePdf(spec)], name, { type: 'application/pdf' });

describe('typed client examples', () => {
  test('GraphQL (client preset): uploads an invoice and reads it back', async () => {
    const { uploaded, readBack } = await graphqlMain(connection, await pdfFile(produceInvoice, 'produce.pdf'));
    expect(uploaded).toMatchObject({ status: 'processed', vendorName: 'Green Valley Produce Co.', invoiceNumber: 'INV-20431', duplicateOf: null });
    expect(readBack).toMatchObject({
      id: uploaded.id,
      total: invoiceTotals(produceInvoice).total,
      vendor: { name: 'Green Valley Produce Co.', invoiceCount: 1 },
    });
    expect(readBack.lineItems).toHaveLength(produceInvoice.lines.length);
  });

  test('REST (openapi-typescript + openapi-fetch): uploads an invoice and reads it back', async () => {
    const { uploaded, readBack } = await restMain(connection, await pdfFile(equipmentInvoice, 'equipment.pdf'));
    expect(uploaded).toMatchObject({ status: 'processed', vendorName: 'Summit Restaurant Equipment LLC', splitInvoices: [], duplicateOf: null });
    expect(readBack).toEqual({ ...uploaded, splitInvoices: undefined, createdAt: uploaded.createdAt });
    expect(readBack.total).toBe(invoiceTotals(equipmentInvoice).total);
  });

  test('both run as commands against the server; errors are reported, not thrown away', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-examples-'));
    const file = path.join(dir, 'paper-goods.pdf');
    writeFileSync(file, await makeInvoicePdf(paperGoodsInvoice));
    const env = { ...process.env, PARTNER_API_URL: t.base, PARTNER_API_KEY: connection.apiKey };
    for (const example of ['examples/graphql-client/main.ts', 'examples/rest-client/main.ts']) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', example, file], { cwd: ROOT, env });
      const out = JSON.parse(stdout) as { uploaded: { id: string }; readBack: { id: string; vendorName: string } };
      expect(out.readBack).toMatchObject({ id: out.uploaded.id, vendorName: 'Metro Packaging Supply Inc.' });
    }
    // The same file again is recorded as a duplicate of the first (the REST body says so).
    const again = await restMain(connection, new File([await makeInvoicePdf(paperGoodsInvoice)], 'again.pdf'));
    expect(again.uploaded.duplicateOf).toEqual(expect.any(String));
    // A wrong key: the examples fail with the API's message.
    await expect(restMain({ ...connection, apiKey: 'pk_wrong' }, await pdfFile(produceInvoice, 'x.pdf'))).rejects.toThrow(/upload: HTTP 401/);
    await expect(graphqlMain({ ...connection, apiKey: 'pk_wrong' }, await pdfFile(produceInvoice, 'x.pdf'))).rejects.toThrow(/UNAUTHENTICATED/);
  }, 60_000);
});
