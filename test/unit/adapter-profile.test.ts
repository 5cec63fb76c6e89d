import { describe, expect, test } from 'vitest';
import { applyProfile, compileSpec, formatDate, formatNumber } from '../../src/modules/adapter/profile.ts';
import { canonicalRequest } from '../../src/modules/adapter/adapter-request.ts';
import { parseSource } from '../../src/modules/adapter/sources.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { InvalidInput } from '../../src/platform/errors.ts';

const invoice = {
  documentType: 'invoice',
  pageCount: 2,
  vendorName: 'Green Valley Produce Co.',
  invoiceNumber: 'INV-20431',
  invoiceDate: '2024-03-05',
  dueDate: null,
  subtotal: 512.35,
  tax: 42.27,
  total: 554.62,
  currency: 'USD',
  extractionConfidence: 93.5,
  fieldConfidences: { vendor: 95, invoiceNumber: 100, invoiceDate: 90, total: 100 },
  lineItems: [
    { description: 'Romaine lettuce case', sku: 'GV-101', quantity: 4, unit: 'case', unitPrice: 32.5, total: 130, costCategory: 'food_cost' },
    { description: 'Delivery fee', sku: null, quantity: 1, unit: 'ea', unitPrice: 1.005, total: 1.005, costCategory: 'freight_delivery' },
  ],
  costCategories: ['food_cost', 'freight_delivery'],
};

const shape = (spec: unknown) => applyProfile(compileSpec(spec), structuredClone(invoice));

/** The 400 a bad spec gets: its field and message. */
function refusal(spec: unknown): { field: string; message: string } {
  try {
    compileSpec(spec);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInput);
    const e = err as InvalidInput;
    return { field: Object.keys(e.fields)[0]!, message: e.message };
  }
  throw new Error('the spec was accepted');
}

describe('shape profiles: applying', () => {
  test('paths (shorthand or {path}), dotted outputs nest, const, and defaults for null', () => {
    expect(
      shape({
        vendor: 'vendorName',
        'invoice.number': { path: 'invoiceNumber' },
        'invoice.due': { path: 'dueDate', default: 'on receipt' },
        'invoice.pages': 'pageCount',
        'meta.source': { const: { system: 'erp', version: 2 } },
        'meta.none': { const: null },
        vendor_confidence: 'fieldConfidences.vendor',
        missing_confidence: { path: 'fieldConfidences.dueDate', default: 0 },
        tip: 'tip',
      }),
    ).toEqual({
      vendor: 'Green Valley Produce Co.',
      invoice: { number: 'INV-20431', due: 'on receipt', pages: 2 },
      meta: { source: { system: 'erp', version: 2 }, none: null },
      vendor_confidence: 95,
      missing_confidence: 0,
      tip: null,
    });
  });

  test('date formats', () => {
    expect(
      shape({
        us: { path: 'invoiceDate', date: 'MM/DD/YYYY' },
        eu: { path: 'invoiceDate', date: 'D.M.YY' },
        long: { path: 'invoiceDate', date: 'MMMM D, YYYY' },
        short: { path: 'invoiceDate', date: 'DD MMM YYYY' },
        compact: { path: 'invoiceDate', date: 'YYYYMMDD' },
        none: { path: 'dueDate', date: 'MM/DD/YYYY' },
      }),
    ).toEqual({ us: '03/05/2024', eu: '5.3.24', long: 'March 5, 2024', short: '05 Mar 2024', compact: '20240305', none: null });
    expect(formatDate('not a date', ['YYYY'])).toBe('not a date');
  });

  test('number formats: decimals, fixed-decimal strings, cents (rounding what the number means)', () => {
    expect(
      shape({
        total: { path: 'total', decimals: 0 },
        total_str: { path: 'total', as: 'string' },
        total_str4: { path: 'total', as: 'string', decimals: 4 },
        total_cents: { path: 'total', as: 'cents' },
        tax: { path: 'tax', as: 'number' },
      }),
    ).toEqual({ total: 555, total_str: '554.62', total_str4: '554.6200', total_cents: 55462, tax: 42.27 });
    expect(formatNumber(1.005, undefined, 'cents')).toBe(101);
    expect(formatNumber(1.005, 2, 'number')).toBe(1.01);
    expect(formatNumber(0.1 + 0.2, undefined, 'string')).toBe('0.30');
  });

  test('lists: each line through a nested spec, or one line field as a list', () => {
    expect(
      shape({
        lines: { path: 'lineItems', each: { text: 'description', 'amount.cents': { path: 'total', as: 'cents' }, sku: { path: 'sku', default: 'n/a' } } },
        skus: 'lineItems[].sku',
        prices: { path: 'lineItems[].unitPrice', as: 'string' },
        categories: 'costCategories',
      }),
    ).toEqual({
      lines: [
        { text: 'Romaine lettuce case', amount: { cents: 13000 }, sku: 'GV-101' },
        { text: 'Delivery fee', amount: { cents: 101 }, sku: 'n/a' },
      ],
      skus: ['GV-101', null],
      prices: ['32.50', '1.01'],
      categories: ['food_cost', 'freight_delivery'],
    });
  });

  test('a receipt through receipt paths; invoice-only paths read as null', () => {
    const receipt = {
      merchantName: 'Cafe',
      receiptDate: '2024-07-01',
      total: 12.5,
      paymentMethod: { type: 'credit', cardBrand: 'Visa', last4: '4242' },
      lineItems: null,
    };
    const out = applyProfile(
      compileSpec({
        m: 'merchantName',
        d: { path: 'receiptDate', date: 'DD/MM/YYYY' },
        pay: 'paymentMethod.type',
        card: 'paymentMethod',
        v: 'vendorName',
        lines: { path: 'lineItems', each: { x: 'total' }, default: [] },
      }),
      receipt,
    );
    expect(out).toEqual({ m: 'Cafe', d: '01/07/2024', pay: 'credit', card: { type: 'credit', cardBrand: 'Visa', last4: '4242' }, v: null, lines: [] });
  });

  test('applying never changes the document', () => {
    const doc = structuredClone(invoice);
    const out = applyProfile(compileSpec({ lines: 'lineItems', fc: 'fieldConfidences' }), doc) as any;
    out.lines[0].total = -1;
    out.fc.vendor = -1;
    expect(doc).toEqual(invoice);
  });
});

describe('shape profiles: checked when saved, naming the output field', () => {
  test.each([
    [{}, 'spec', /spec must map at least one output field/],
    [[], 'spec', /spec must be a JSON object/],
    [{ total: 'totl' }, 'spec.total', /spec\.total names an unknown source path "totl" \(known: documentType, .*vendorName/],
    [{ 'a.b': 'lineItems[].price' }, 'spec.a.b', /unknown source path "lineItems\[\]\.price"/],
    [{ d: { path: 'invoiceDate', date: 'MM/QQ/YYYY' } }, 'spec.d', /bad date format "MM\/QQ\/YYYY": "QQ" is not one of/],
    [{ d: { path: 'invoiceDate', date: '--' } }, 'spec.d', /it has no date part/],
    [{ d: { path: 'vendorName', date: 'YYYY' } }, 'spec.d', /vendorName is not a date/],
    [{ n: { path: 'vendorName', decimals: 2 } }, 'spec.n', /vendorName is not a number/],
    [{ n: { path: 'total', decimals: 9 } }, 'spec.n', /decimals must be an integer from 0 to 6/],
    [{ n: { path: 'total', as: 'euros' } }, 'spec.n', /"as" must be one of number, string, cents/],
    [{ n: { path: 'total', as: 'cents', decimals: 2 } }, 'spec.n', /cents are whole numbers/],
    [{ l: { path: 'total', each: { x: 'total' } } }, 'spec.l', /"each", which only applies to lineItems/],
    [{ l: { path: 'lineItems', each: { x: 'vendorName' } } }, 'spec.l[].x', /unknown source path "vendorName" \(line fields: description/],
    [{ l: { path: 'lineItems', each: {} } }, 'spec.l[]', /must map at least one output field/],
    [{ x: { path: 'total', const: 1 } }, 'spec.x', /either path or const, not both/],
    [{ x: { const: 1, default: 2 } }, 'spec.x', /const rule: "default" does not apply/],
    [{ x: { path: 'total', format: 'x' } }, 'spec.x', /unknown rule option "format"/],
    [{ x: 42 }, 'spec.x', /must be a source path \(string\) or a rule object/],
    [{ x: {} }, 'spec.x', /must name a source path \("path"\) or a constant/],
    [{ a: 'total', 'a.b': 'tax' }, 'spec.a.b', /conflicts with spec\.a, which is not an object/],
    [{ 'a.b': 'tax', a: 'total' }, 'spec.a', /conflicts with the nested fields mapped under it/],
    [{ 'a..b': 'tax' }, 'spec.a..b', /empty name between dots/],
    [{ '__proto__.x': 'tax' }, 'spec.__proto__.x', /"__proto__" is reserved/],
  ])('%j → %s', (spec, field, message) => {
    const r = refusal(spec);
    expect(r.field).toBe(field);
    expect(r.message).toMatch(message);
  });

  test('at most 200 rules', () => {
    const spec = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, 'total']));
    expect(refusal(spec).message).toMatch(/more than 200 rules/);
  });
});

describe('adapter requests', () => {
  test('exactly one source, in a known form', () => {
    expect(parseSource({ sourceUrl: ' https://x.example/a.pdf ' })).toEqual({ kind: 'url', url: 'https://x.example/a.pdf' });
    expect(parseSource({ sourceUri: 's3://my-bucket/a/b c.pdf' })).toEqual({ kind: 'object', scheme: 's3', bucket: 'my-bucket', key: 'a/b c.pdf' });
    expect(parseSource({ sourceUri: 'gs://my_bucket/a.pdf' })).toMatchObject({ scheme: 'gs', bucket: 'my_bucket', key: 'a.pdf' });
    expect(() => parseSource({})).toThrow(/source_url or source_uri is required/);
    expect(() => parseSource({ sourceUrl: 'https://x', sourceUri: 's3://b/k' })).toThrow(/exactly one of source_url and source_uri/);
    expect(() => parseSource({ sourceUri: 'ftp://b/k' })).toThrow(/source_uri must be s3:\/\/bucket\/key or gs:\/\/bucket\/key/);
    expect(() => parseSource({ sourceUri: 's3://Bad_Bucket/k' })).toThrow(/invalid S3 bucket "Bad_Bucket"/);
    expect(() => parseSource({ sourceUrl: 's3://my-bucket/a.pdf' })).toThrow('source_url must be an https:// URL; s3:// and gs:// URIs go in source_uri');
  });

  test('the same request hashes the same (document_type defaults to invoice); fields hash separately', () => {
    const a = canonicalRequest({ sourceUrl: 'https://x/a.pdf', correlationId: 'c1' });
    const b = canonicalRequest({ sourceUrl: 'https://x/a.pdf', documentType: 'invoice', correlationId: 'other' });
    const c = canonicalRequest({ sourceUrl: 'https://x/a.pdf', profile: 'erp' });
    expect(a).toEqual(b);
    expect(c.hash).not.toBe(a.hash);
    expect(Object.keys(a.fields)).toEqual(['source_url', 'source_uri', 'document_type', 'profile', 'tenant_id']);
    expect(
      Object.entries(c.fields)
        .filter(([k, v]) => a.fields[k] !== v)
        .map(([k]) => k),
    ).toEqual(['profile']);
  });

  test('config: S3 settings and explicit credentials (both or neither)', () => {
    expect(loadConfig({}).objectSources).toEqual({
      s3: { endpoint: undefined, region: 'us-east-1', forcePathStyle: false, credentials: undefined },
      gcs: { apiEndpoint: undefined, projectId: undefined },
    });
    const c = loadConfig({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'eu-west-1',
      S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: 'AK',
      AWS_SECRET_ACCESS_KEY: 'SK',
      GCS_API_ENDPOINT: 'http://127.0.0.1:9001',
    });
    expect(c.objectSources).toEqual({
      s3: { endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', forcePathStyle: true, credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } },
      gcs: { apiEndpoint: 'http://127.0.0.1:9001', projectId: undefined },
    });
    expect(() => loadConfig({ AWS_ACCESS_KEY_ID: 'AK' })).toThrow(/AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: give both or neither/);
    expect(() => loadConfig({ S3_REGION: 'US East' })).toThrow(/S3_REGION: must be an AWS region/);
  });
});
