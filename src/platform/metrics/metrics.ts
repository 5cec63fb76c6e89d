import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// The app's Prometheus metrics (GET /metrics). One Registry per running app, never prom-client's global one, so
// several apps in one process (tests) keep their own series. Every label is bounded: routes are Fastify's URL
// patterns, operation names are capped and truncated, error codes are the error table's.

/** Where a request arrived: /graphql, a REST route, or anything else (unknown routes, pages). */
export type Channel = 'graphql' | 'rest' | 'http';
export type WebhookOutcome = 'delivered' | 'retry' | 'failed';

/** One document the local engine read (src/extraction/reader.ts). */
export interface ReadObservation {
  documentKind: string;
  fileType: string;
  /** From the call to the outcome, waiting for a worker included. */
  seconds: number;
  pages: ReadonlyArray<{ source: 'text-layer' | 'ocr'; ms: number }>;
  /** An e-invoice (CII/UBL) was read: an XML file, or a PDF's attachment. */
  einvoice: boolean;
  /** The OCR engine the workers run (ppocr, tesseract), once one has loaded it. */
  ocrEngine: string | null;
}

/** What is read at scrape time; set once the pieces exist (the server is created before the reader). */
export interface ScrapeSources {
  /** Documents waiting for a reading worker (between their slices too), and documents being read. */
  readQueue?: () => { waiting: number; inFlight: number };
  /** Age in seconds of the oldest outbox event not handed on yet (0 when none). */
  outboxLagSeconds?: () => Promise<number>;
  /** The `pg` pool Kysely runs on (embedded PGlite: one connection). */
  dbPool?: () => { kind: string; total: number; idle: number; waiting: number; max: number };
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const EXTRACTION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Distinct GraphQL operation names kept as labels; later new ones count as `other`. */
const MAX_OPERATION_NAMES = 200;
const MAX_NAME_LENGTH = 64;
/** The longest error code label (the table's and Apollo's codes are far shorter). */
const CODE = /^[A-Z][A-Z0-9_]{0,39}$/;

export function createMetrics() {
  const registry = new Registry();
  // Process, heap, GC and event-loop lag (nodejs_eventloop_lag_seconds and the _p50/_p99 of its histogram).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const registers = [registry];
  const sources: ScrapeSources = {};

  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status_code'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const operations = new Counter({
    name: 'graphql_operations_total',
    help: "GraphQL operations executed, by channel (graphql: /graphql, rest: a REST route's stored operation), name and type.",
    labelNames: ['channel', 'operation', 'type'] as const,
    registers,
  });
  const operationDuration = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'Time to execute a GraphQL operation, by channel, name and type.',
    labelNames: ['channel', 'operation', 'type'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const errors = new Counter({
    name: 'api_errors_total',
    help: "Errors answered, by channel and error code (src/platform/errors.ts; Apollo's request codes on /graphql; a 5xx answered without a code by its status: SERVICE_UNAVAILABLE, HTTP_504…); every 5xx and internal error once.",
    labelNames: ['channel', 'code'] as const,
    registers,
  });
  const pageDuration = new Histogram({
    name: 'extraction_page_duration_seconds',
    help: 'Worker time to read one page, by engine (text-layer, ppocr, tesseract) and page kind (pdf, image).',
    labelNames: ['engine', 'page_kind'] as const,
    buckets: EXTRACTION_BUCKETS,
    registers,
  });
  const documentDuration = new Histogram({
    name: 'extraction_document_duration_seconds',
    help: "Time to read one document, queue wait included, by the engine that mattered (e-invoice, ppocr/tesseract when a page was OCR'd, else text-layer) and document kind.",
    labelNames: ['engine', 'document_kind'] as const,
    buckets: EXTRACTION_BUCKETS,
    registers,
  });
  const webhookDeliveries = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), retry (failed, another attempt scheduled), failed (no attempt left, or 410 Gone).',
    labelNames: ['outcome'] as const,
    registers,
  });
  new Gauge({
    name: 'extraction_queue_depth',
    help: 'Documents waiting for a reading (OCR) worker, a document between two of its slices included.',
    registers,
    collect() {
      this.set(sources.readQueue?.().waiting ?? 0);
    },
  });
  new Gauge({
    name: 'extraction_documents_in_flight',
    help: 'Documents the reading workers hold: waiting for a worker or being read.',
    registers,
    collect() {
      this.set(sources.readQueue?.().inFlight ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: "Database pool connections by state (in_use, idle) and the pool's maximum (max); embedded PGlite has one.",
    labelNames: ['database', 'state'] as const,
    registers,
    collect() {
      const pool = sources.dbPool?.();
      if (!pool) return;
      this.set({ database: pool.kind, state: 'in_use' }, pool.total - pool.idle);
      this.set({ database: pool.kind, state: 'idle' }, pool.idle);
      this.set({ database: pool.kind, state: 'max' }, pool.max);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_queries',
    help: 'Queries waiting for a free database connection.',
    labelNames: ['database'] as const,
    registers,
    collect() {
      const pool = sources.dbPool?.();
      if (pool) this.set({ database: pool.kind }, pool.waiting);
    },
  });

  // After the pool's gauges: collectors start in registration order, and this one's query would show as pool use.
  new Gauge({
    name: 'outbox_lag_seconds',
    help: 'Age of the oldest outbox event not yet handed on to webhook deliveries (0 when none waits).',
    registers,
    async collect() {
      this.set(sources.outboxLagSeconds ? await sources.outboxLagSeconds().catch(() => -1) : 0);
    },
  });

  /** Requests whose error was counted where it was answered (the HTTP hook counts the other 5xx). */
  const counted = new WeakSet<object>();
  const seenNames = new Set<string>();
  /** A bounded label for a client-chosen operation name. */
  function operationLabel(name: string | null | undefined): string {
    if (!name) return 'anonymous';
    const label = name.slice(0, MAX_NAME_LENGTH);
    if (seenNames.has(label)) return label;
    if (seenNames.size >= MAX_OPERATION_NAMES) return 'other';
    seenNames.add(label);
    return label;
  }

  return {
    registry,
    /** The text exposition and its content type. */
    async scrape(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    /** Sets what gauges read on scrape (merged with what was set before). */
    watch(more: ScrapeSources): void {
      Object.assign(sources, more);
    },
    /** `route` is the matched route's pattern (undefined: no route matched). */
    httpRequest(route: string | undefined, method: string, statusCode: number, seconds: number): void {
      const labels = { route: route ?? 'unmatched', method: METHODS.has(method) ? method : 'other', status_code: String(statusCode) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    operation(channel: Channel, name: string | null | undefined, type: string, seconds: number): void {
      const labels = { channel, operation: operationLabel(name), type };
      operations.inc(labels);
      operationDuration.observe(labels, seconds);
    },
    /** `request`: the HTTP request answered with this error, so that the HTTP hook does not count it again. */
    error(channel: Channel, code: unknown, request?: object): void {
      errors.inc({ channel, code: typeof code === 'string' && CODE.test(code) ? code : 'OTHER' });
      if (request) counted.add(request);
    },
    /** Whether an error of this request was counted already. */
    errorCounted(request: object): boolean {
      return counted.has(request);
    },
    documentRead(read: ReadObservation): void {
      const pageKind = read.fileType === 'pdf' ? 'pdf' : 'image';
      const ocr = read.ocrEngine ?? 'ocr';
      for (const page of read.pages) {
        pageDuration.observe({ engine: page.source === 'ocr' ? ocr : 'text-layer', page_kind: pageKind }, page.ms / 1000);
      }
      const engine = read.einvoice ? 'e-invoice' : read.pages.some((p) => p.source === 'ocr') ? ocr : 'text-layer';
      documentDuration.observe({ engine, document_kind: read.documentKind }, read.seconds);
    },
    webhookAttempt(outcome: WebhookOutcome): void {
      webhookDeliveries.inc({ outcome });
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
