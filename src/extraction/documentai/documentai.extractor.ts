// The Google Document AI provider: Invoice Parser for invoices, Expense Parser for receipts, through the official
// client (@google-cloud/documentai) over its HTTP/1 REST transport.
//
// The client module is imported and the client built on first use only: building Google clients can probe the
// cloud metadata address, which must never happen unless EXTRACTOR=documentai is configured and used. Its first
// call awaits `initialize()` itself: when the client cannot create its stub (no credentials), the library also
// rejects a promise nobody handles inside `processDocument`; awaiting it first keeps that rejection ours.

import type { DocumentProcessorServiceClient, protos } from '@google-cloud/documentai';
import { type DocumentExtractor, ExtractionServiceError, MIME_TYPES } from '../extractor.ts';
import { type FileType, UnreadableDocumentError } from '../types.ts';
import { documentAiEvidence, INVOICE_TYPES, RECEIPT_TYPES } from './evidence.ts';
import { assertReadable, type DocAiDocument, documentToInvoices, documentToReceipt, pageCountOf } from './entities.ts';
import { parseDocumentAiEndpoint, processorName } from './endpoint.ts';

export type DocumentAiClientOptions = NonNullable<ConstructorParameters<typeof DocumentProcessorServiceClient>[0]>;

/** The part of the client used here (tests may supply their own). */
export interface ProcessClient {
  initialize(): Promise<unknown>;
  processDocument(
    request: protos.google.cloud.documentai.v1.IProcessRequest,
    options?: object,
  ): Promise<[protos.google.cloud.documentai.v1.IProcessResponse, ...unknown[]]>;
  close(): Promise<void>;
}

/**
 * Credentials in the shape the client's REST transport uses: request headers, and a fetch that adds them.
 * Default (unset): Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, the metadata server).
 */
export interface DocumentAiAuth {
  getRequestHeaders(url?: string): Promise<Headers>;
  fetch(url: string, init: RequestInit): Promise<Response>;
}

export interface DocumentAiOptions {
  project: string;
  location: string;
  /** Processor id, or its full resource name (to pin a processor version). */
  invoiceProcessor: string;
  expenseProcessor: string;
  /** See parseDocumentAiEndpoint; default `{location}-documentai.googleapis.com`. */
  apiEndpoint?: string;
  /** One processDocument call, retries of transient failures included (default 120 s). */
  timeoutMs?: number;
  /** Credentials other than ADC; with a plain-http loopback endpoint the default is none at all. */
  auth?: DocumentAiAuth;
  /** Builds the client (default: the real one, imported on first use). */
  createClient?: (options: DocumentAiClientOptions) => Promise<ProcessClient>;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** gRPC status codes (the REST transport reports the same ones). */
const STATUS = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;
const TRANSIENT = new Set(['DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED', 'UNAVAILABLE', 'INTERNAL', 'UNKNOWN', 'ABORTED']);

export function createDocumentAiExtractor(options: DocumentAiOptions): DocumentExtractor {
  const endpoint = parseDocumentAiEndpoint(options.apiEndpoint, options.location);
  const processors = {
    invoice: processorName(options.project, options.location, options.invoiceProcessor),
    expense: processorName(options.project, options.location, options.expenseProcessor),
  };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const auth = options.auth ?? (endpoint.protocol === 'http' ? staticAuth(null) : undefined);
  const clientOptions: DocumentAiClientOptions = {
    apiEndpoint: endpoint.host,
    port: endpoint.port,
    protocol: endpoint.protocol,
    fallback: true,
    ...(auth ? { auth: auth as unknown as DocumentAiClientOptions['auth'] } : {}),
  };
  const createClient = options.createClient ?? realClient;
  const callOptions = {
    timeout: timeoutMs,
    retry: {
      // UNAVAILABLE, RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED: again after ~0.5 s, 1.5 s, 4 s … within the timeout.
      retryCodes: [14, 8, 4],
      backoffSettings: {
        initialRetryDelayMillis: 500,
        retryDelayMultiplier: 3,
        maxRetryDelayMillis: 4000,
        initialRpcTimeoutMillis: timeoutMs,
        rpcTimeoutMultiplier: 1,
        maxRpcTimeoutMillis: timeoutMs,
        totalTimeoutMillis: timeoutMs,
      },
    },
  };

  let client: Promise<ProcessClient> | undefined;
  let closed = false;

  const connect = (): Promise<ProcessClient> =>
    (client ??= (async () => {
      let c: ProcessClient | undefined;
      try {
        c = await createClient(clientOptions);
        await c.initialize();
        return c;
      } catch (err) {
        client = undefined; // the next upload tries again (e.g. once credentials are in place)
        await c?.close().catch(() => {});
        throw err;
      }
    })());

  async function callProcessor(name: string, bytes: Uint8Array, fileType: FileType): Promise<DocAiDocument> {
    if (closed) throw new Error('the Document AI extractor is closed');
    let response: protos.google.cloud.documentai.v1.IProcessResponse;
    try {
      const c = await connect();
      [response] = await c.processDocument(
        { name, rawDocument: { content: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), mimeType: MIME_TYPES[fileType] } },
        callOptions,
      );
    } catch (err) {
      throw translate(err);
    }
    assertReadable(response.document);
    return response.document;
  }

  return {
    provider: 'documentai',
    async extractInvoices(bytes, fileType) {
      const doc = await callProcessor(processors.invoice, bytes, fileType);
      // Document AI's parsers read every page from its image (native PDF text is an option of its OCR processor only).
      const invoices = documentToInvoices(doc).map((i) => ({ ...i, source: 'ocr' as const, evidence: documentAiEvidence(doc, INVOICE_TYPES, i) }));
      return { pageCount: pageCountOf(doc), invoices, notes: [] };
    },
    async extractReceipt(bytes, fileType) {
      const doc = await callProcessor(processors.expense, bytes, fileType);
      const receipt = documentToReceipt(doc);
      return { pageCount: pageCountOf(doc), receipt: { ...receipt, evidence: documentAiEvidence(doc, RECEIPT_TYPES, receipt) }, notes: [] };
    },
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      if (c) await c.then((x) => x.close()).catch(() => {});
    },
  };
}

async function realClient(options: DocumentAiClientOptions): Promise<ProcessClient> {
  const { DocumentProcessorServiceClient } = await import('@google-cloud/documentai');
  return new DocumentProcessorServiceClient(options) as unknown as ProcessClient;
}

/** Requests with a fixed bearer token, or with no credentials at all (`null`: a local test server). */
export function staticAuth(token: string | null): DocumentAiAuth {
  const headers = () => new Headers(token ? { authorization: `Bearer ${token}` } : {});
  return {
    getRequestHeaders: async () => headers(),
    fetch(url, init) {
      const all = new Headers(init.headers);
      headers().forEach((value, key) => all.set(key, value));
      return fetch(url, { method: init.method, headers: all, body: init.body, signal: init.signal });
    },
  };
}

/**
 * A rejected document (INVALID_ARGUMENT: unsupported, corrupt, too many pages) is the document's problem; anything
 * else is the service's. Partners see the status name, never the provider's message (it names our project).
 */
function translate(err: unknown): Error {
  if (err instanceof UnreadableDocumentError || err instanceof ExtractionServiceError) return err;
  const e = err as { code?: unknown; message?: string; cause?: { code?: unknown } };
  const systemCode = [e?.code, e?.cause?.code].find((c): c is string => typeof c === 'string' && /^E[A-Z_]+$/.test(c));
  const status =
    typeof e?.code === 'number'
      ? (STATUS[e.code] ?? 'UNKNOWN')
      : systemCode || e?.message === 'fetch failed'
        ? 'UNAVAILABLE' // ECONNREFUSED, ETIMEDOUT, ENOTFOUND…: no HTTP answer at all
        : /credential/i.test(e?.message ?? '')
          ? 'UNAUTHENTICATED'
          : 'UNKNOWN';
  if (status === 'INVALID_ARGUMENT') {
    const why = (e.message ?? '')
      .replace(/^\d+ INVALID_ARGUMENT: /, '')
      .replace(/projects\/\S+/g, '(processor)')
      .slice(0, 200);
    return new UnreadableDocumentError(`the document was rejected by the extraction service: ${why}`);
  }
  const hint = TRANSIENT.has(status) ? '; the upload can be retried' : '';
  return new ExtractionServiceError(`the document extraction service (Google Document AI) failed: ${status}${hint}`, {
    provider: 'documentai',
    status,
    cause: err,
  });
}
