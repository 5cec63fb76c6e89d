import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  createDocumentAiExtractor,
  type DocumentAiClientOptions,
  type DocumentAiOptions,
  type ProcessClient,
  staticAuth,
} from '../../../src/extraction/documentai/documentai.extractor.ts';
import { type DocumentExtractor, ExtractionServiceError } from '../../../src/extraction/extractor.ts';
import { UnreadableDocumentError } from '../../../src/extraction/types.ts';
import { makeInvoicePdf, produceInvoice } from '../../fixtures/invoice-documents.ts';
import {
  EXPENSE_RESPONSE,
  type FakeDocumentAi,
  INVOICE_RESPONSE,
  recordConnections,
  recordUnhandledRejections,
  startFakeDocumentAi,
} from './fake-documentai.ts';

// The real @google-cloud/documentai client (REST transport) against a loopback server speaking its protocol.

let server: FakeDocumentAi;
let pdf: Buffer;
let connections: ReturnType<typeof recordConnections>;
let unhandled: ReturnType<typeof recordUnhandledRejections>;
const open: DocumentExtractor[] = [];

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

function extractor(overrides: Partial<DocumentAiOptions> = {}): DocumentExtractor {
  const e = createDocumentAiExtractor({
    project: 'test-project',
    location: 'eu',
    invoiceProcessor: 'inv0001',
    expenseProcessor: 'exp0002',
    apiEndpoint: server.endpoint,
    auth: staticAuth('test-token'),
    ...overrides,
  });
  open.push(e);
  return e;
}

beforeAll(async () => {
  expect(process.env.METADATA_SERVER_DETECTION).toBe('none'); // test/vitest.config.ts sets it for every test
  server = await startFakeDocumentAi();
  server.respond('inv0001', INVOICE_RESPONSE);
  server.respond('exp0002', EXPENSE_RESPONSE);
  pdf = await makeInvoicePdf(produceInvoice);
});
afterAll(() => server?.close());
beforeEach(() => {
  server.calls.length = 0;
  connections = recordConnections();
  unhandled = recordUnhandledRejections();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
  await new Promise((r) => setTimeout(r, 20)); // let a stray rejection surface before checking
  connections.stop();
  unhandled.stop();
  expect(unhandled.reasons).toEqual([]);
  expect(connections.nonLoopback()).toEqual([]);
});

describe('Document AI extractor over the REST transport', () => {
  test('invoices go to the invoice processor with the base64 content and MIME type; the response is mapped', async () => {
    const result = await extractor().extractInvoices(pdf, 'pdf');
    expect(server.calls).toHaveLength(1);
    const [call] = server.calls;
    expect(call!.processor).toBe('projects/test-project/locations/eu/processors/inv0001');
    expect(call!.body.rawDocument).toEqual({ content: pdf.toString('base64'), mimeType: 'application/pdf' });
    expect(call!.headers.authorization).toBe('Bearer test-token');
    expect(call!.headers['x-goog-request-params']).toBe('name=projects%2Ftest-project%2Flocations%2Feu%2Fprocessors%2Finv0001');
    expect(result.pageCount).toBe(2);
    expect(result.invoices).toHaveLength(1);
    expect(result.invoices[0]).toMatchObject({ vendorName: 'Green Valley Produce Co.', invoiceNumber: 'INV-20431', total: 367.22, currency: 'USD' });
    expect(result.invoices[0]!.lineItems).toHaveLength(5);
    expect(connections.targets.length).toBeGreaterThan(0);
  });

  test('receipts go to the expense processor; a full processor name (a pinned version) is used as given', async () => {
    const pinned = 'projects/other-project/locations/eu/processors/exp0002/processorVersions/pretrained-expense-v1.4-2022-11-18';
    const { pageCount, receipt } = await extractor({ expenseProcessor: pinned }).extractReceipt(JPEG, 'jpeg');
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.processor).toBe(pinned);
    expect(server.calls[0]!.body.rawDocument).toEqual({ content: JPEG.toString('base64'), mimeType: 'image/jpeg' });
    expect(pageCount).toBe(1);
    expect(receipt).toMatchObject({ merchantName: "LUIGI'S TRATTORIA", total: 38.93, tip: 6, paymentMethod: { last4: '4417' } });
  });

  test('a plain-http loopback endpoint without explicit auth sends no credentials and never looks any up', async () => {
    await extractor({ auth: undefined }).extractReceipt(JPEG, 'jpeg');
    expect(server.calls[0]!.headers.authorization).toBeUndefined();
  });

  test('the client is built on first use only, once, and closed with the extractor', async () => {
    const built: DocumentAiClientOptions[] = [];
    const close = vi.fn(async () => {});
    const e = extractor({
      createClient: async (options) => {
        built.push(options);
        const { DocumentProcessorServiceClient } = await import('@google-cloud/documentai');
        const real = new DocumentProcessorServiceClient(options);
        const realClose = real.close.bind(real);
        return Object.assign(real as unknown as ProcessClient, { close: async () => (await realClose(), close()) });
      },
    });
    expect(built).toHaveLength(0);
    await Promise.all([e.extractInvoices(pdf, 'pdf'), e.extractReceipt(JPEG, 'jpeg')]);
    await e.extractInvoices(pdf, 'pdf');
    expect(built).toHaveLength(1);
    expect(built[0]).toMatchObject({ apiEndpoint: '127.0.0.1', port: server.port, protocol: 'http', fallback: true });
    await e.close();
    expect(close).toHaveBeenCalledTimes(1);
    await expect(e.extractInvoices(pdf, 'pdf')).rejects.toThrow(/closed/);
  });

  test.each([
    [500, 'INTERNAL', /failed: INTERNAL; the upload can be retried/],
    [403, 'PERMISSION_DENIED', /failed: PERMISSION_DENIED$/],
    [404, 'NOT_FOUND', /failed: NOT_FOUND$/],
  ])('HTTP %i → ExtractionServiceError %s, with no unhandled rejection and no provider message leaked', async (status, name, message) => {
    server.failNext(status);
    const err = await extractor()
      .extractInvoices(pdf, 'pdf')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionServiceError);
    expect(err).toMatchObject({ details: { provider: 'documentai', status: name } });
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toMatch(/injected|test-project/);
    expect(server.calls).toHaveLength(1); // not retried
  });

  test('INVALID_ARGUMENT (the document itself was refused) → UnreadableDocumentError', async () => {
    server.failNext(400);
    const err = await extractor()
      .extractReceipt(JPEG, 'jpeg')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreadableDocumentError);
    expect((err as Error).message).toMatch(/rejected by the extraction service: injected INVALID_ARGUMENT/);
  });

  test('UNAVAILABLE is retried with backoff, then succeeds', async () => {
    server.failNext(503, 2);
    const { invoices } = await extractor().extractInvoices(pdf, 'pdf');
    expect(invoices[0]!.invoiceNumber).toBe('INV-20431');
    expect(server.calls).toHaveLength(3);
  });

  test('nothing listening → UNAVAILABLE within the timeout, no unhandled rejection', async () => {
    const gone = await startFakeDocumentAi();
    await gone.close();
    const err = await extractor({ apiEndpoint: gone.endpoint, timeoutMs: 1500 })
      .extractInvoices(pdf, 'pdf')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionServiceError);
    expect((err as ExtractionServiceError).details.status).toMatch(/UNAVAILABLE|DEADLINE_EXCEEDED/);
  });

  test('credentials that cannot be loaded: a clear error for every call, no unhandled rejection, retried on the next upload', async () => {
    let attempts = 0;
    const auth = {
      getClient: async () => {
        attempts++;
        throw new Error('Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication/getting-started');
      },
    };
    const e = extractor({ auth: auth as never });
    const seen: number[] = [];
    for (let i = 0; i < 2; i++) {
      const err = await e.extractInvoices(pdf, 'pdf').catch((x: unknown) => x);
      expect(err).toBeInstanceOf(ExtractionServiceError);
      expect((err as Error).message).toMatch(/failed: UNAUTHENTICATED$/);
      seen.push(attempts);
    }
    // The client asks for credentials while it is being built (its operations client) and again for its stub:
    // which is why it is only built when Document AI is configured and used. The second upload tries afresh.
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[1]).toBeGreaterThan(seen[0]!);
    expect(server.calls).toHaveLength(0);
  });

  test('an empty result (no text, no entities) is unreadable', async () => {
    const empty = await startFakeDocumentAi();
    empty.respond('inv0001', JSON.stringify({ document: { text: '', pages: [] } }));
    try {
      const err = await extractor({ apiEndpoint: empty.endpoint })
        .extractInvoices(pdf, 'pdf')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnreadableDocumentError);
    } finally {
      await empty.close();
    }
  });
});
