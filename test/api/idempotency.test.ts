import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { equipmentInvoice, makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gqlData, http, startTestApp, type TestApp } from '../helpers/app.ts';

// Idempotency-Key (Stripe's semantics) on REST POSTs and GraphQL mutations: a retry replays the kept response,
// another request under the same key is 409, concurrent retries run the work once.

let t: TestApp;
let partner: { partnerId: string; tenantId: string; apiKey: string };
let pdf: Buffer;
let otherPdf: Buffer;

beforeAll(async () => {
  t = await startTestApp();
  partner = await t.createPartner({ tier: 'embed' });
  [pdf, otherPdf] = await Promise.all([makeInvoicePdf(produceInvoice), makeInvoicePdf(equipmentInvoice)]);
});
afterAll(() => t?.close());

function upload(file: Buffer, key?: string) {
  const fd = new FormData();
  fd.append('file', new Blob([file]), 'invoice.pdf');
  return http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: { 'x-api-key': partner.apiKey, 'idempotency-key': key }, body: fd });
}

// Every invoice record, duplicates included: a key makes one record, a retry without one makes a duplicate record.
const invoiceCount = async () =>
  (await gqlData<{ invoices: { nodes: unknown[] } }>(t.base, partner.apiKey, '{ invoices(first: 100, filter: { includeDuplicates: true }) { nodes { id } } }'))
    .invoices.nodes.length;

describe('Idempotency-Key', () => {
  test('the same upload sent 5 times with one key is one invoice; the retries say they are replays', async () => {
    const before = await invoiceCount();
    const key = randomUUID();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await upload(pdf, key));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.map((a) => a.headers.get('idempotent-replayed'))).toEqual([null, 'true', 'true', 'true', 'true']);
    expect(answers[4]!.body).toEqual(answers[0]!.body);
    expect(await invoiceCount()).toBe(before + 1);
  }, 120_000);

  test('the same key with another file is 409 and runs nothing', async () => {
    const key = randomUUID();
    expect((await upload(pdf, key)).status).toBe(201);
    const before = await invoiceCount();
    const other = await upload(otherPdf, key);
    expect(other.status).toBe(409);
    expect(other.body.error).toMatch(/already used with a different request/);
    expect(await invoiceCount()).toBe(before);
  }, 120_000);

  test('concurrent retries with one key run the upload once and all get its answer', async () => {
    const before = await invoiceCount();
    const key = randomUUID();
    const answers = await Promise.all([upload(pdf, key), upload(pdf, key), upload(pdf, key)]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    expect(await invoiceCount()).toBe(before + 1);
  }, 120_000);

  test('a GraphQL mutation under a key runs once; other variables under it are 409', async () => {
    const key = randomUUID();
    const create = (name: string) =>
      http(t.base, 'POST', '/graphql', {
        headers: { 'x-api-key': partner.apiKey, 'idempotency-key': key },
        json: { query: 'mutation($i: CreateTenantInput!) { createTenant(input: $i) { tenantId } }', variables: { i: { name, email: 'owner@corner.example' } } },
      });
    const first = await create('Corner Cafe');
    const again = await create('Corner Cafe');
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const tenants = await gqlData<{ viewer: { tenants: Array<{ name: string }> } }>(t.base, partner.apiKey, '{ viewer { tenants { name } } }');
    expect(tenants.viewer.tenants.filter((x) => x.name === 'Corner Cafe')).toHaveLength(1);
    const other = await create('Corner Bakery');
    expect(other.status).toBe(409);
    expect(other.body.errors[0].extensions.code).toBe('CONFLICT');
  });

  test('keys are per partner, queries ignore them, and a malformed key is 400 naming the header', async () => {
    const key = randomUUID();
    const mine = await upload(pdf, key);
    const someone = await t.createPartner({ tier: 'storage' });
    const fd = new FormData();
    fd.append('file', new Blob([pdf]), 'invoice.pdf');
    const theirs = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', {
      headers: { 'x-api-key': someone.apiKey, 'idempotency-key': key },
      body: fd,
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    const query = await http(t.base, 'POST', '/graphql', {
      headers: { 'x-api-key': partner.apiKey, 'idempotency-key': key },
      json: { query: '{ viewer { name } }' },
    });
    expect(query.status).toBe(200);
    expect(query.headers.get('idempotent-replayed')).toBeNull();
    const bad = await upload(pdf, 'x'.repeat(300));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Idempotency-Key/);
  }, 120_000);
});
