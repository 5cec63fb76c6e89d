import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/platform/config.ts';
import { parseDocumentAiEndpoint, processorName } from '../../../src/extraction/documentai/endpoint.ts';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return '';
};

describe('EXTRACTOR and DOCUMENTAI_* settings', () => {
  test('default: the local engine', () => {
    expect(loadConfig({}).extractor).toEqual({ kind: 'local' });
  });

  test('documentai: project and both processors, location us by default', () => {
    const config = loadConfig({
      EXTRACTOR: 'documentai',
      DOCUMENTAI_PROJECT: 'acme-prod',
      DOCUMENTAI_INVOICE_PROCESSOR: 'a1b2c3d4e5f6',
      DOCUMENTAI_EXPENSE_PROCESSOR: 'f6e5d4c3b2a1',
    });
    expect(config.extractor).toEqual({
      kind: 'documentai',
      project: 'acme-prod',
      location: 'us',
      invoiceProcessor: 'a1b2c3d4e5f6',
      expenseProcessor: 'f6e5d4c3b2a1',
      apiEndpoint: undefined,
    });
  });

  test('documentai without its settings: one startup error naming every missing variable', () => {
    const message = problems({ EXTRACTOR: 'documentai', DOCUMENTAI_INVOICE_PROCESSOR: '' });
    expect(message).toMatch(/DOCUMENTAI_PROJECT: required when EXTRACTOR=documentai/);
    expect(message).toMatch(/DOCUMENTAI_INVOICE_PROCESSOR: required when EXTRACTOR=documentai/);
    expect(message).toMatch(/DOCUMENTAI_EXPENSE_PROCESSOR: required when EXTRACTOR=documentai/);
    expect(problems({ EXTRACTOR: 'google' })).toMatch(/EXTRACTOR/);
  });

  test('bad values are reported: location, processor, a plain-http endpoint that is not loopback, a path', () => {
    const base = { EXTRACTOR: 'documentai', DOCUMENTAI_PROJECT: 'acme-prod', DOCUMENTAI_INVOICE_PROCESSOR: 'inv', DOCUMENTAI_EXPENSE_PROCESSOR: 'exp' };
    expect(problems({ ...base, DOCUMENTAI_LOCATION: 'EU West' })).toMatch(/DOCUMENTAI_LOCATION/);
    expect(problems({ ...base, DOCUMENTAI_INVOICE_PROCESSOR: 'inv/../x' })).toMatch(/DOCUMENTAI_INVOICE_PROCESSOR/);
    expect(problems({ ...base, DOCUMENTAI_API_ENDPOINT: 'http://documentai.example.com' })).toMatch(/DOCUMENTAI_API_ENDPOINT: .*loopback/);
    expect(problems({ ...base, DOCUMENTAI_API_ENDPOINT: 'https://eu-documentai.googleapis.com/v1' })).toMatch(/DOCUMENTAI_API_ENDPOINT: .*no path/);
    expect(problems({ ...base, DOCUMENTAI_API_ENDPOINT: 'http://127.0.0.1:8123' })).toBe('');
  });
});

describe('endpoint and processor names', () => {
  test.each([
    [undefined, 'eu', { host: 'eu-documentai.googleapis.com', port: 443, protocol: 'https' }],
    [undefined, 'us', { host: 'us-documentai.googleapis.com', port: 443, protocol: 'https' }],
    ['eu-documentai.googleapis.com', 'eu', { host: 'eu-documentai.googleapis.com', port: 443, protocol: 'https' }],
    ['documentai.example.internal:8443', 'us', { host: 'documentai.example.internal', port: 8443, protocol: 'https' }],
    ['https://us-documentai.googleapis.com/', 'us', { host: 'us-documentai.googleapis.com', port: 443, protocol: 'https' }],
    ['http://127.0.0.1:8123', 'us', { host: '127.0.0.1', port: 8123, protocol: 'http' }],
    ['http://localhost:9000', 'us', { host: 'localhost', port: 9000, protocol: 'http' }],
  ])('%s (location %s)', (raw, location, expected) => {
    expect(parseDocumentAiEndpoint(raw, location)).toEqual(expected);
  });

  test('a bare processor id is placed under the project and location; a full name is kept', () => {
    expect(processorName('acme', 'eu', 'abc123')).toBe('projects/acme/locations/eu/processors/abc123');
    const pinned = 'projects/acme/locations/eu/processors/abc123/processorVersions/pretrained-invoice-v2.0-2023-12-06';
    expect(processorName('other', 'us', pinned)).toBe(pinned);
  });
});
