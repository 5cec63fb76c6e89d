import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { equipmentInvoice, invoiceTotals, makeInvoicePdf } from '../fixtures/invoice-documents.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let mine: { apiKey: string; tenantId: string };
let theirs: { apiKey: string; tenantId: string };
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestApp();
  mine = await t.createPartner({ tier: 'storage' });
  theirs = await t.createPartner({ tier: 'storage' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

function wsClient(base: string, apiKey: string): Client {
  const c = createClient({ url: `${base.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0 });
  clients.push(c);
  return c;
}

/** Subscribes and records every result with the time it arrived. */
export function record(c: Client, query: string, variables: Record<string, unknown> = {}) {
  const got: Array<{ at: number; result: any }> = [];
  let subscribed!: () => void;
  const ready = new Promise<void>((r) => (subscribed = r));
  const stop = c.subscribe(
    { query, variables },
    { next: (result) => got.push({ at: Date.now(), result }), error: (e) => got.push({ at: Date.now(), result: { errors: [e] } }), complete: () => {} },
  );
  // graphql-ws has no "subscribed" ack: a round trip on the same socket after the subscribe message orders them.
  void c
    .iterate({ query: '{ viewer { name } }' })
    .next()
    .then(() => subscribed());
  return { got, ready, stop };
}

async function upload(apiKey: string): Promise<{ body: any; at: number }> {
  const fd = new FormData();
  fd.append('file', new Blob([await makeInvoicePdf(equipmentInvoice)]), 'i.pdf');
  const res = await fetch(`${t.base}/api/v1/partner/invoices/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: fd });
  return { body: await res.json(), at: Date.now() };
}

const waitFor = async (cond: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
};

const INVOICE_EVENTS = `subscription($types: [String!]) { invoiceEvents(types: $types) {
  id type timestamp tenantId invoice { id status vendorName total lineItems { description costCategory } } data } }`;

test('an upload reaches its partner subscriber as invoice.created then invoice.processed within 1 s; never another partner', async () => {
  const a = record(wsClient(t.base, mine.apiKey), INVOICE_EVENTS);
  const vendors = record(wsClient(t.base, mine.apiKey), 'subscription { vendorEvents { type vendor { name } } }');
  const other = record(wsClient(t.base, theirs.apiKey), 'subscription { events { type } }');
  await Promise.all([a.ready, vendors.ready, other.ready]);

  const { body, at } = await upload(mine.apiKey);
  await waitFor(() => a.got.length >= 2 && vendors.got.length >= 1, 3000);
  expect(a.got.map((g) => g.result.data?.invoiceEvents.type)).toEqual(['invoice.created', 'invoice.processed']);
  const processed = a.got[1]!.result.data.invoiceEvents;
  expect(processed).toMatchObject({
    tenantId: mine.tenantId,
    invoice: { id: body.id, status: 'processed', vendorName: 'Summit Restaurant Equipment LLC', total: invoiceTotals(equipmentInvoice).total },
  });
  expect(processed.invoice.lineItems).toHaveLength(2);
  expect(processed.data).toMatchObject({ id: body.id, status: 'processed', costCategories: body.costCategories });
  expect(a.got[1]!.at - at).toBeLessThan(1000);
  expect(vendors.got[0]!.result.data.vendorEvents).toEqual({ type: 'vendor.created', vendor: { name: 'Summit Restaurant Equipment LLC' } });

  await new Promise((r) => setTimeout(r, 500)); // the other partner's subscription had time to (wrongly) see anything
  expect(other.got).toEqual([]);
});

test('subscribing is authorized: a missing scope, a foreign tenant and an unknown kind are errors', async () => {
  const { apiKey: vendorsOnly } = await t.app.services.partners.createApiKey({
    partnerId: (await t.app.services.authenticate(mine.apiKey)).partner.id,
    scopes: ['read'],
  });
  const denied = record(wsClient(t.base, vendorsOnly), INVOICE_EVENTS);
  const foreign = record(wsClient(t.base, mine.apiKey), 'subscription($t: UUID) { invoiceEvents(tenantId: $t) { type } }', { t: theirs.tenantId });
  const badKind = record(wsClient(t.base, mine.apiKey), INVOICE_EVENTS, { types: ['vendor.created'] });
  await waitFor(() => denied.got.length > 0 && foreign.got.length > 0 && badKind.got.length > 0, 3000);
  expect(JSON.stringify(denied.got[0]!.result)).toMatch(/invoices:read/);
  expect(JSON.stringify(foreign.got[0]!.result)).toMatch(/tenant not found/);
  expect(JSON.stringify(badKind.got[0]!.result)).toMatch(/unknown event kind/);
});
