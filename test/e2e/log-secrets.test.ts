import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, expect, inject, test } from 'vitest';
import { ownerFile } from '../../src/app/admin/data-dir-lock.ts';
import { makeInvoicePdf, produceInvoice } from '../fixtures/invoice-documents.ts';
import { cookieBrowser as browser, formPost as form, openSetup } from '../helpers/cookie-browser.ts';
import { createPartnerWithCli, serverEnv, startServerProcess } from '../helpers/process.ts';
import { CLIENT, signInAsBrowser, startTestProvider } from '../sso/oidc-provider.ts';
import { authnRequestOf, b64, idpKeyPair, idpMetadata, samlResponse, sign } from '../sso/saml-idp.ts';

// The real server process at LOG_LEVEL=trace, its output not a terminal (as under a process manager), through every
// flow that carries a secret: the admin CLI, API keys over REST and GraphQL, a webhook and its delivery, a document
// link, an adapter source URL, embed sign-in, tenant setup, OIDC and SAML sign-in. Then the whole log (stdout and
// stderr) is searched for each secret used: none may be there (DESIGN §11).
const running: ChildProcess[] = [];
const closers: Array<() => unknown> = [];
afterAll(async () => {
  for (const close of closers) await close();
  running.forEach((p) => p.exitCode === null && p.kill('SIGKILL'));
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

test('no secret used in any flow appears in the log, at trace level', async () => {
  const secrets: Record<string, string> = {};
  const pdf = await makeInvoicePdf(produceInvoice);
  const deliveries: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];
  const receiverPort = await listen((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url!.startsWith('/hook')) deliveries.push({ body, headers: req.headers });
      if (req.url!.startsWith('/doc.pdf')) return res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      res.writeHead(req.url!.startsWith('/hook') ? 200 : 404).end();
    });
  });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'partner-api-log-secrets-'));
  const env = serverEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'trace', OUTBOUND_ALLOW_LOOPBACK: '1', EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir') });
  const server = await startServerProcess(env, running);
  const { base } = server;
  const publicUrl = `http://localhost:${new URL(base).port}`;

  // No terminal: no demo key printed, but how to get a key; the operator makes one with the admin CLI.
  const demoKey = /apiKey\s+(pk_[\w-]{32})/.exec(server.output())?.[1];
  if (demoKey) secrets.demoKey = demoKey;
  expect.soft(server.output()).toContain('npm run admin -- create-partner');
  const partner = await createPartnerWithCli(env, 'embed');
  secrets.apiKey = partner.apiKey;
  secrets.adminToken = JSON.parse(readFileSync(ownerFile(dataDir), 'utf8')).adminToken;
  const key = { 'x-api-key': partner.apiKey };
  const json = (body: unknown) => ({ method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const graphql = async (query: string) => (await (await fetch(`${base}/graphql`, json({ query }))).json()) as { data: any };

  // A webhook whose URL carries a token, and its whsec_ secret; an upload; the delivery, signed with that secret.
  secrets.hookToken = 'hooktoken-5d1f0c2a9b7e';
  const hook = await fetch(
    `${base}/api/v1/partner/webhooks`,
    json({ url: `http://127.0.0.1:${receiverPort}/hook?token=${secrets.hookToken}`, events: ['invoice.processed'] }),
  );
  expect(hook.status).toBe(201);
  secrets.webhookSecret = ((await hook.json()) as { secret: string }).secret.replace(/^whsec_/, '');
  const fd = new FormData();
  fd.append('file', new Blob([pdf]), 'invoice.pdf');
  const upload = await fetch(`${base}/api/v1/partner/invoices/upload`, { method: 'POST', headers: key, body: fd });
  expect(upload.status).toBe(201);
  const invoiceId = ((await upload.json()) as { id: string }).id;
  await expect.poll(() => deliveries.length, { timeout: 15_000 }).toBeGreaterThan(0);
  new Webhook(secrets.webhookSecret).verify(deliveries[0]!.body, deliveries[0]!.headers as Record<string, string>);

  // A document link issued to the key (a bearer link): it opens with no key and no cookie.
  const original = (await graphql(`{ invoice(id: "${invoiceId}") { original { url } } }`)).data.invoice.original.url as string;
  secrets.documentSignature = new URL(original).searchParams.get('signature')!;
  expect((await fetch(original.replace(publicUrl, base))).status).toBe(200);

  // The adapter fetches a pre-signed URL; one that fails, and an unknown route, with secrets in their queries.
  secrets.presigned = 'AmzSignature0c9e7d2f41b6';
  const adapter = (url: string) =>
    fetch(`${base}/api/v1/partner/extract`, {
      method: 'POST',
      headers: { authorization: `Bearer ${partner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source_url: url }),
    });
  expect((await adapter(`http://127.0.0.1:${receiverPort}/doc.pdf?X-Amz-Signature=${secrets.presigned}`)).status).toBe(200);
  expect((await adapter(`http://127.0.0.1:${receiverPort}/gone.pdf?X-Amz-Signature=${secrets.presigned}`)).status).toBeGreaterThanOrEqual(400);
  secrets.queryToken = 'querytoken-8a4c1e';
  expect((await fetch(`${base}/nowhere?token=${secrets.queryToken}`)).status).toBe(404);

  // A request the HTTP parser refuses: Node keeps its raw bytes (the key header included) on the error.
  secrets.rawPacketKey = [...Buffer.from(partner.apiKey)].join(',');
  const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
  socket.end(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-API-Key: ${partner.apiKey}\r\nBad Header\r\n\r\n`);
  await new Promise((r) => socket.resume().on('close', r));

  // Tenant setup with OIDC: the link, its browser binding, the client secret; then a sign-in through the provider.
  const created = async (ssoProvider: string) =>
    (await (await fetch(`${base}/api/v1/partner/tenants`, json({ name: `Log ${ssoProvider}`, email: 'owner@example.com', ssoProvider }))).json()) as {
      tenantId: string;
      setupUrl: string;
    };
  const oidcTenant = await created('oidc');
  secrets.setupToken = oidcTenant.setupUrl.split('/setup/')[1]!;
  const callback = `${publicUrl}/sso/${oidcTenant.tenantId}/oidc/callback`;
  const op = await startTestProvider({ redirectUris: [callback] });
  closers.push(() => op.close());
  const owner = browser(base);
  expect((await openSetup(owner, oidcTenant.setupUrl)).status).toBe(200);
  secrets.setupBinder = owner.cookies.get('pa_setup')!;
  const setupDone = await owner(oidcTenant.setupUrl, form({ name: 'Log oidc', issuer: op.issuer, ...CLIENT }));
  expect(setupDone.status).toBe(200);

  secrets.clientSecret = CLIENT.clientSecret;
  const person = browser(base);
  const start = await person(`${base}/sso/${oidcTenant.tenantId}/start`);
  const back = await signInAsBrowser(start.headers.get('location')!, callback);
  secrets.oidcCode = new URL(back).searchParams.get('code')!;
  secrets.oidcState = new URL(back).searchParams.get('state')!;
  const signedIn = await person(back);
  expect(signedIn.status).toBe(303);
  secrets.oidcSession = person.cookies.get('pa_session')!;
  expect((await person(`${base}/app/dashboard`)).status).toBe(200);
  expect((await fetch(back.replace(publicUrl, base), { redirect: 'manual' })).status).toBe(401); // a replay: logged as refused

  // Tenant setup with SAML, and a signed response posted to the ACS (and a tampered one, refused and logged).
  const samlTenant = await created('saml');
  const keys = idpKeyPair();
  const idp = { entityId: 'https://idp.example.test/entity', ssoUrl: 'https://idp.example.test/sso' };
  const samlOwner = browser(base);
  expect((await openSetup(samlOwner, samlTenant.setupUrl)).status).toBe(200);
  expect((await samlOwner(samlTenant.setupUrl, form({ name: 'Log saml', metadata: idpMetadata({ ...idp, cert: keys.cert }) }))).status).toBe(200);
  const acs = `${publicUrl}/sso/${samlTenant.tenantId}/saml/acs`;
  const samlPerson = browser(base);
  const samlStart = await samlPerson(`${base}/sso/${samlTenant.tenantId}/start`);
  const requestId = /ID="([^"]+)"/.exec(authnRequestOf(samlStart.headers.get('location')!))![1]!;
  const assertion = { idpEntityId: idp.entityId, audience: `${publicUrl}/sso/${samlTenant.tenantId}/saml`, recipient: acs, inResponseTo: requestId };
  const good = b64(sign(samlResponse(assertion), 'Assertion', keys));
  secrets.samlResponse = good.slice(200, 260);
  const samlIn = await samlPerson(acs, form({ SAMLResponse: good }));
  expect(samlIn.status).toBe(303);
  secrets.samlSession = samlPerson.cookies.get('pa_session')!;
  const tampered = b64(sign(samlResponse({ ...assertion, email: 'eve@example.com' }), 'Assertion', keys).replace('eve@', 'mallory@'));
  secrets.tamperedSaml = tampered.slice(200, 260);
  expect((await samlPerson(acs, form({ SAMLResponse: tampered }))).status).toBe(401);

  // Embed sign-in: the one-time link, the session cookie it sets, a page with it.
  await fetch(`${base}/api/v1/partner/tenants/${oidcTenant.tenantId}/stores`, json({ externalStoreId: 'log-1', name: 'Log One' }));
  const embed = await fetch(
    `${base}/api/v1/partner/tenants/${oidcTenant.tenantId}/embed/auth`,
    json({ email: 'maria@example.com', name: 'Maria', externalStoreId: 'log-1', page: 'invoices' }),
  );
  const { embedToken, embedUrl } = ((await embed.json()) as { data: { embedToken: string; embedUrl: string } }).data;
  secrets.embedToken = embedToken;
  const member = browser(base);
  const opened = await member(embedUrl);
  expect(opened.status).toBe(303);
  secrets.embedSession = member.cookies.get('pa_session')!;
  expect((await member(`${base}/app/invoices`)).status).toBe(200);
  expect((await member(embedUrl)).status).toBe(410); // used: a refusal with the token in the URL again

  server.signal('SIGTERM');
  expect(await server.exited).toBe(0);
  const log = server.output();
  // The flows were logged (their paths without the secrets), so the search below looked at something.
  for (const logged of ['"url":"/setup/[redacted]"', '"url":"/embed/session"', '"url":"/documents/', '/oidc/callback"', 'client error']) {
    expect.soft(log).toContain(logged);
  }
  const found = Object.entries(secrets).filter(([, value]) => value && log.includes(value));
  expect(found.map(([name]) => name)).toEqual([]);
}, 180_000);
