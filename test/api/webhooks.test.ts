import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listEvents, type OutboxRow } from '../../src/platform/events/outbox.queries.ts';
import { claimDueDeliveries } from '../../src/modules/webhooks/webhooks.queries.ts';
import { makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { gql, http, startTestApp, type TestApp } from '../helpers/app.ts';
import { selfSignedCert } from '../helpers/tls.ts';

// Deliveries go over real HTTPS to a receiver with a self-signed certificate made here; the app trusts it
// through its test-only `webhooks.ca` setting. Signatures are checked with the standardwebhooks library.

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

let strict: TestApp; // production rules: https to public addresses only
let t: TestApp; // loopback receivers allowed, retries after 100 ms
let receiver: https.Server;
let receiverUrl: string;
const received: Received[] = [];
/** Status codes a path answers, in order (then 200). */
const answers = new Map<string, number[]>();
/** Paths whose answers wait until this many requests arrived (at most 2 s), then all go out at once. */
const together = new Map<string, { count: number; held: Array<() => void> }>();
let partner: { partnerId: string; tenantId: string; apiKey: string };
let events: OutboxRow[];
let invoiceId: string;

const byPath = (p: string) => received.filter((r) => r.path === p);
const key = (apiKey = partner.apiKey) => ({ 'x-api-key': apiKey });

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function register(url: string, eventTypes: string[], apiKey = partner.apiKey) {
  const res = await http(t.base, 'POST', '/api/v1/partner/webhooks', { headers: key(apiKey), json: { url, events: eventTypes } });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string; url: string; events: string[] };
}

/** What the dispatcher does for every outbox batch (idempotent: it may already have done it). */
async function enqueue(rows: OutboxRow[] = events): Promise<number> {
  const n = await t.database.db.transaction().execute((trx) =>
    t.app.services.webhooks.enqueue(
      trx,
      rows.map((r) => r.id),
    ),
  );
  t.app.services.webhooks.wake();
  return n;
}

const WEBHOOK = `query($id: UUID!) { webhook(id: $id) { id enabled disabledReason
  deliveries(first: 10) { id eventId eventType status attempts lastStatus lastError createdAt deliveredAt
    attemptLog { attempt startedAt statusCode latencyMs error } } } }`;
const webhookState = async (id: string) => (await gql(t.base, partner.apiKey, WEBHOOK, { id })).body.data!.webhook;

beforeAll(async () => {
  const tls = selfSignedCert();
  receiver = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers as Record<string, string>, body });
      const status = answers.get(req.url ?? '')?.shift() ?? 200;
      const answer = () => res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : `status ${status}`);
      const group = together.get(req.url ?? '');
      if (!group) return answer();
      group.held.push(answer);
      const release = () => group.held.splice(0).forEach((a) => a());
      if (group.held.length >= group.count) release();
      else setTimeout(release, 2000);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  [strict, t] = await Promise.all([
    startTestApp(),
    startTestApp({ env: { OUTBOUND_ALLOW_LOOPBACK: '1', WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms' }, webhooks: { ca: tls.cert } }),
  ]);
  partner = await t.createPartner({ tier: 'storage' });
});
afterAll(async () => {
  await Promise.all([strict?.close(), t?.close()]);
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

describe('POST /api/v1/partner/webhooks: validation', () => {
  let strictPartner: { apiKey: string };
  beforeAll(async () => {
    strictPartner = await strict.createPartner({ tier: 'storage' });
  });
  const post = (json: unknown) => http(strict.base, 'POST', '/api/v1/partner/webhooks', { headers: key(strictPartner.apiKey), json });

  test.each([
    ['http://93.184.215.14/hook', ['invoice.created'], /url must be an https:\/\/ URL/],
    ['https://93.184.215.14/hook', ['invoice.deleted'], /events contains an unknown event "invoice.deleted"/],
    ['https://93.184.215.14/hook', ['invoice.created', 'invoice.created'], /events names "invoice.created" more than once/],
    ['https://93.184.215.14/hook', [], /events must name at least one event/],
    ['https://10.1.2.3/hook', ['invoice.created'], /10\.1\.2\.3 is a private address/],
    ['https://169.254.169.254/latest/meta-data', ['invoice.created'], /169\.254\.169\.254 is a link-local address/],
    ['https://[::1]/hook', ['invoice.created'], /\[::1\] is a loopback address/],
    ['https://[::ffff:127.0.0.1]/hook', ['invoice.created'], /loopback address/],
    ['https://localhost/hook', ['invoice.created'], /localhost is (127\.0\.0\.1|::1), a loopback address/],
    ['https://127.0.0.1/hook', ['invoice.created'], /loopback address/],
    ['https://example.com:99999/hook', ['invoice.created'], /^url has port 99999; a port is a number from 0 to 65535$/],
    ['https://example.com:port/hook', ['invoice.created'], /^url must be an absolute URL \(got "https:\/\/example\.com:port\/hook"\)$/],
  ])('%s %j → 400 naming the problem', async (url, eventTypes, message) => {
    const res = await post({ url, events: eventTypes });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('missing fields and wrong types are 400; a public https URL is 201 with a whsec_ secret', async () => {
    expect((await post({ events: ['invoice.created'] })).body.error).toMatch(/url is required/);
    expect((await post({ url: 'https://93.184.215.14/hook', events: 'invoice.created' })).body.error).toBe(
      'events must be an array of event names (got a string)',
    );
    expect((await post({ url: 'https://93.184.215.14/hook', events: { a: 1 } })).body.error).toBe('events must be an array of event names (got an object)');
    expect((await post({ url: 'https://93.184.215.14/hook' })).body.error).toMatch(/events is required: an array/);
    const ok = await post({ url: 'https://93.184.215.14/hook', events: ['vendor.created', 'invoice.failed'] });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      url: 'https://93.184.215.14/hook',
      events: ['vendor.created', 'invoice.failed'],
    });
  });

  test('GraphQL gets the same messages; a key without webhooks:write is 403; another partner tenant is NOT_FOUND', async () => {
    const m = 'mutation($u: String!, $e: [String!]!, $t: UUID) { registerWebhook(url: $u, events: $e, tenantId: $t) { id } }';
    const bad = await gql(strict.base, strictPartner.apiKey, m, { u: 'https://10.0.0.1/', e: ['invoice.created'] });
    expect(bad.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/private address/), extensions: { code: 'BAD_USER_INPUT' } });
    const other = await strict.createPartner({ tier: 'storage' });
    const foreign = await gql(strict.base, strictPartner.apiKey, m, { u: 'https://93.184.215.14/', e: ['invoice.created'], t: other.tenantId });
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const { apiKey } = await strict.app.services.partners.createApiKey({ partnerId: other.partnerId, scopes: ['read'] });
    const res = await http(strict.base, 'POST', '/api/v1/partner/webhooks', {
      headers: key(apiKey),
      json: { url: 'https://93.184.215.14/', events: ['invoice.created'] },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/webhooks:write/);
  });
});

describe('deliveries over HTTPS, signed per Standard Webhooks', () => {
  let hook: { id: string; secret: string };

  test('invoice.created, invoice.processed and vendor.created of an upload arrive signed; a tampered body fails verification', async () => {
    hook = await register(`${receiverUrl}/main`, ['invoice.created', 'invoice.processed', 'vendor.created']);
    // another partner's endpoint must hear nothing of this partner's events
    const stranger = await t.createPartner({ tier: 'storage' });
    await register(`${receiverUrl}/stranger`, ['invoice.created', 'invoice.processed', 'vendor.created'], stranger.apiKey);

    const fd = new FormData();
    fd.append('file', new Blob([await makeInvoicePdf(produceInvoice)]), 'invoice.pdf');
    const upload = await http(t.base, 'POST', '/api/v1/partner/invoices/upload', { headers: key(), body: fd });
    expect(upload.status).toBe(201);
    invoiceId = upload.body.id;
    events = await listEvents(t.database.db, partner.tenantId);
    expect(events.map((e) => e.type).sort()).toEqual(['invoice.created', 'invoice.processed', 'vendor.created']);

    // The dispatcher hands the outbox to the webhooks by itself; enqueueing again afterwards adds nothing.
    const got = await until('three deliveries', () => (byPath('/main').length >= 3 ? byPath('/main') : undefined));
    expect(await enqueue()).toBe(0);
    // No fourth delivery can be sent: the queue holds exactly the three rows (no fixed wait for a stray one).
    expect((await webhookState(hook.id)).deliveries).toHaveLength(3);
    expect(byPath('/main')).toHaveLength(3);
    const verifier = new Webhook(hook.secret);
    const bodies = got.map((r) => {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(() => verifier.verify(r.body.replace(/"type"/, '"type" '), r.headers)).toThrow();
      expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(r.body, r.headers)).toThrow();
      return verifier.verify(r.body, r.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
    });
    for (const r of got) expect(events.map((e) => e.eventId)).toContain(r.headers['webhook-id']);
    expect(Object.keys(JSON.parse(got[0]!.body))).toEqual(['type', 'timestamp', 'data']);
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
    expect(byType['invoice.created']!.data).toMatchObject({ id: invoiceId, status: 'processing' });
    expect(byType['invoice.processed']!.data).toMatchObject({ id: invoiceId, status: 'processed', vendorName: 'Green Valley Produce Co.' });
    expect(byType['vendor.created']!.data).toMatchObject({ name: 'Green Valley Produce Co.' });
    for (const b of bodies) {
      const event = events.find((e) => e.type === b.type)!;
      expect(b.timestamp).toBe(new Date(event.createdAt).toISOString());
    }
    expect(byPath('/stranger')).toHaveLength(0);

    const state = await webhookState(hook.id);
    expect(state.deliveries).toHaveLength(3);
    for (const d of state.deliveries) {
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, lastStatus: 200, lastError: null });
      expect(d.attemptLog).toEqual([{ attempt: 1, startedAt: expect.any(String), statusCode: 200, latencyMs: expect.any(Number), error: null }]);
    }
  });

  test('500, 500, 200: exactly three attempts on the (shortened) schedule, each recorded, same webhook-id', async () => {
    answers.set('/flaky', [500, 500]);
    await register(`${receiverUrl}/flaky`, ['vendor.created']);
    const flaky = (await gql(t.base, partner.apiKey, '{ webhooks { id url } }')).body.data!.webhooks.find((w: any) => w.url.endsWith('/flaky'));
    await enqueue();
    const state = await until('the flaky delivery to succeed', async () => {
      const s = await webhookState(flaky.id);
      return s.deliveries[0]?.status === 'delivered' ? s : undefined;
    });
    const [d] = state.deliveries;
    expect(d).toMatchObject({ eventType: 'vendor.created', attempts: 3, lastStatus: 200, lastError: null });
    expect(d.attemptLog.map((a: any) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, 'HTTP 500: status 500'],
      [2, 500, 'HTTP 500: status 500'],
      [3, 200, null],
    ]);
    const gaps = d.attemptLog.slice(1).map((a: any, i: number) => Date.parse(a.startedAt) - Date.parse(d.attemptLog[i].startedAt));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(90);
    expect(byPath('/flaky')).toHaveLength(3);
    expect(new Set(byPath('/flaky').map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  test('a receiver that always fails gets 1 + 3 retries, then the delivery is failed', async () => {
    answers.set('/down', [503, 503, 503, 503, 503]);
    const down = await register(`${receiverUrl}/down`, ['vendor.created']);
    await enqueue();
    const state = await until('the delivery to fail', async () => {
      const s = await webhookState(down.id);
      return s.deliveries[0]?.status === 'failed' ? s : undefined;
    });
    expect(state.deliveries[0]).toMatchObject({ attempts: 4, lastStatus: 503 });
    expect(byPath('/down')).toHaveLength(4);
  });

  test('410 Gone disables the webhook; nothing more is queued for it; its deliveries cannot be replayed', async () => {
    answers.set('/gone', [410, 410]);
    // Both deliveries' 410s come back at once, so their attempts are recorded concurrently (on PostgreSQL, on two
    // connections: recording them once deadlocked and one attempt went unlogged).
    together.set('/gone', { count: 2, held: [] });
    const gone = await register(`${receiverUrl}/gone`, ['invoice.created', 'invoice.processed']);
    await enqueue();
    // Settled: disabled, every delivery failed, and every request the receiver got is logged as an attempt (the
    // second 410 is recorded after the first one disabled the webhook; an attempt never logged times this out).
    const state = await until('the webhook to be disabled and every attempt logged', async () => {
      const s = await webhookState(gone.id);
      const logged = s.deliveries.reduce((n: number, d: any) => n + d.attemptLog.length, 0);
      return !s.enabled && s.deliveries.every((d: any) => d.status === 'failed') && logged === byPath('/gone').length ? s : undefined;
    });
    expect(state.disabledReason).toMatch(/410 Gone/);
    const sent = state.deliveries.filter((d: any) => d.attempts > 0);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    for (const d of sent) expect(d.attemptLog.map((a: any) => a.statusCode)).toEqual([410]);
    expect(byPath('/gone').length).toBe(sent.length);
    const replay = await gql(t.base, partner.apiKey, 'mutation($id: UUID!) { replayWebhookDelivery(id: $id) { id } }', { id: state.deliveries[0].id });
    expect(replay.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    // a later event is not queued for a disabled endpoint
    const before = (await webhookState(gone.id)).deliveries.length;
    // (written as already handed on, so that only this enqueue sees it)
    const later = await t.database.db
      .insertInto('outboxEvents')
      .values({ tenantId: events[0]!.tenantId, type: 'invoice.created', subjectId: events[0]!.subjectId, payload: JSON.stringify({}), publishedAt: new Date() })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(await enqueue([later])).toBeGreaterThan(0); // queued for the enabled webhooks
    expect((await webhookState(gone.id)).deliveries.length).toBe(before);
  });

  test('replay re-sends now with the same webhook-id; after rotation both secrets verify for a while', async () => {
    const first = (await webhookState(hook.id)).deliveries[0];
    const rotated = await gql(t.base, partner.apiKey, 'mutation($id: UUID!) { rotateWebhookSecret(id: $id) { id secret previousSecretValidUntil } }', {
      id: hook.id,
    });
    const newSecret = rotated.body.data!.rotateWebhookSecret.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(hook.secret);
    const before = byPath('/main').length;
    const replay = await gql(t.base, partner.apiKey, 'mutation($id: UUID!) { replayWebhookDelivery(id: $id) { id status } }', { id: first.id });
    expect(replay.body.data!.replayWebhookDelivery).toEqual({ id: first.id, status: 'pending' });
    const again = await until('the replay', () => byPath('/main')[before]);
    expect(again.headers['webhook-id']).toBe(first.eventId);
    expect(again.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(again.body, again.headers)).toMatchObject({ type: first.eventType });
    expect(new Webhook(hook.secret).verify(again.body, again.headers)).toMatchObject({ type: first.eventType });
    const d = await until('the replay to be recorded', async () =>
      (await webhookState(hook.id)).deliveries.find((x: any) => x.id === first.id && x.attempts === 2),
    );
    expect(d.attemptLog.map((a: any) => a.statusCode)).toEqual([200, 200]);
  });

  test('a worker that dies holding a claim loses nothing: the lock expires and the delivery is sent', async () => {
    const crash = await register(`${receiverUrl}/crash`, ['invoice.created']);
    // Enqueue and claim in one transaction, as a worker would that is killed before it sends anything.
    await t.database.db.transaction().execute(async (trx) => {
      await t.app.services.webhooks.enqueue(
        trx,
        events.map((e) => e.id),
      );
      await claimDueDeliveries(trx, 100, 1);
    });
    t.app.services.webhooks.wake();
    await new Promise((r) => setTimeout(r, 300));
    expect(byPath('/crash')).toHaveLength(0);
    await until('the abandoned delivery', () => byPath('/crash')[0], 5000);
    const state = await until('it to be recorded', async () => {
      const s = await webhookState(crash.id);
      return s.deliveries[0]?.status === 'delivered' ? s : undefined;
    });
    expect(state.deliveries[0].attempts).toBe(1);
  });

  test('a receiver named by host name is reached at the address that was checked', async () => {
    const named = await register(`${receiverUrl.replace('127.0.0.1', 'localhost')}/named`, ['invoice.created']);
    await enqueue();
    const got = await until('the delivery to localhost', () => byPath('/named')[0]);
    expect(new Webhook(named.secret).verify(got.body, got.headers)).toMatchObject({ type: 'invoice.created' });
  });

  test('list and delete; a deleted or foreign webhook is NOT_FOUND', async () => {
    const list = await gql(t.base, partner.apiKey, '{ webhooks { id url events enabled tenantId } }');
    expect(list.body.data!.webhooks.map((w: any) => w.id)).toContain(hook.id);
    const del = 'mutation($id: UUID!) { deleteWebhook(id: $id) }';
    const stranger = await t.createPartner({ tier: 'storage' });
    expect((await gql(t.base, stranger.apiKey, del, { id: hook.id })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await gql(t.base, partner.apiKey, del, { id: hook.id })).body.data).toEqual({ deleteWebhook: true });
    expect((await gql(t.base, partner.apiKey, del, { id: hook.id })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await gql(t.base, partner.apiKey, WEBHOOK, { id: hook.id })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
