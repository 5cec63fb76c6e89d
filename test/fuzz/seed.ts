import { CAFE_RECEIPT } from '../fixtures/invoice-documents.ts';
import { makeTextPdf } from '../fixtures/reading-fixtures.ts';

// Real ids for the fuzzer to aim at, created through the API as a partner would: a sub-tenant with a store, an
// uploaded invoice (and so a vendor), a receipt, inventory, an employee with a schedule, a shift, a punch and a
// time-off request, a shape profile, and a tenant user's browser session. Generated requests use these ids next to
// random and malformed ones, so they get past "not found" into the code behind it.

export interface SeedIds {
  defaultTenantId: string;
  tenantId: string;
  storeId: string;
  defaultStoreId: string;
  externalStoreId: string;
  invoiceId: string;
  vendorId: string;
  receiptId: string;
  itemId: string;
  employeeId: string;
  scheduleId: string;
  shiftId: string;
  timeOffId: string;
  profileName: string;
  /** A tenant user's session cookie (`pa_session=…`), from a redeemed embed sign-in link. */
  sessionCookie: string;
}

export async function seedThroughApi(base: string, apiKey: string, invoicePdf: Buffer): Promise<SeedIds> {
  const call = async (method: string, url: string, body: string | FormData, headers: Record<string, string> = {}) => {
    const res = await fetch(base + url, { method, headers: { 'x-api-key': apiKey, ...headers }, body });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`seeding: ${method} ${url} answered ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const rest = (url: string, body: unknown) => call('POST', url, JSON.stringify(body), { 'content-type': 'application/json' });
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await rest('/graphql', { query, variables });
    if (res.errors) throw new Error(`seeding: ${query} failed: ${JSON.stringify(res.errors)}`);
    return res.data;
  };

  const viewer = await gql('{ viewer { tenants { id isDefault } } }');
  const defaultTenantId = viewer.viewer.tenants.find((t: { isDefault: boolean }) => t.isDefault).id;
  const { tenantId } = await rest('/api/v1/partner/tenants', { name: 'Fuzz Bistro', email: 'owner@bistro.example', maxLocations: 20 });
  const externalStoreId = 'fuzz-store-1';
  const store = await rest(`/api/v1/partner/tenants/${tenantId}/stores`, { externalStoreId, name: 'Harbor', timezone: 'America/New_York' });
  const storeId = store.data.store.id;
  const defaultStore = await gql('mutation { createStore(input: { externalStoreId: "fuzz-default-1", name: "Main" }) { store { id } } }');

  const form = new FormData();
  form.set('file', new Blob([invoicePdf], { type: 'application/pdf' }), 'invoice.pdf');
  form.set('tenantId', tenantId);
  form.set('storeId', storeId);
  const invoice = await call('POST', '/api/v1/partner/invoices/upload', form);
  const vendor = await gql('query($id: UUID!) { invoice(id: $id) { vendor { id } } }', { id: invoice.id });

  const receiptForm = new FormData();
  receiptForm.set(
    'operations',
    JSON.stringify({ query: 'mutation($f: Upload!, $t: UUID) { uploadReceipt(file: $f, tenantId: $t) { id } }', variables: { f: null, t: tenantId } }),
  );
  receiptForm.set('map', JSON.stringify({ 0: ['variables.f'] }));
  const receiptPdf = await makeTextPdf([CAFE_RECEIPT.map((text, i) => ({ text, x: 50, y: 50 + i * 16, size: 11 }))]);
  receiptForm.set('0', new Blob([receiptPdf], { type: 'application/pdf' }), 'receipt.pdf');
  const receipt = await call('POST', '/graphql', receiptForm, { 'apollo-require-preflight': 'true' });
  if (receipt.errors) throw new Error(`seeding: uploadReceipt failed: ${JSON.stringify(receipt.errors)}`);

  const made = await gql(
    `mutation($t: UUID, $s: UUID!) {
      item: createInventoryItem(tenantId: $t, input: { storeId: $s, name: "Tomatoes", category: food_cost, unit: "lb", defaultCost: 2.5, packSizes: [{ unit: "case", quantity: 25 }] }) { id }
      employee: createEmployee(tenantId: $t, input: { storeId: $s, name: "Ana Line", hourlyRate: 18.5 }) { id }
      schedule: createSchedule(tenantId: $t, input: { storeId: $s, weekStart: "2026-01-04" }) { id }
    }`,
    { t: tenantId, s: storeId },
  );
  const shift = await gql(
    `mutation($sc: UUID!, $e: UUID!, $s: UUID) {
      shift: addShift(scheduleId: $sc, input: { employeeId: $e, startsAt: "2026-01-05T14:00:00Z", endsAt: "2026-01-05T22:00:00Z" }) { id }
      punch: recordTimePunch(input: { employeeId: $e, storeId: $s, clockIn: "2026-01-05T14:02:00Z", clockOut: "2026-01-05T22:01:00Z" }) { id }
      profile: setShapeProfile(name: "fuzz", spec: { number: "invoiceNumber", total_cents: { path: "total", as: "cents" } }) { name }
    }`,
    { sc: made.schedule.id, e: made.employee.id, s: storeId },
  );
  const timeOff = await rest(`/api/v1/partner/tenants/${tenantId}/scheduling/time-off`, {
    employeeId: made.employee.id,
    startDate: '2026-02-02',
    endDate: '2026-02-03',
    reason: 'seeded',
  });

  const embed = await rest(`/api/v1/partner/tenants/${tenantId}/embed/auth`, {
    email: 'cfo@bistro.example',
    name: 'Casey',
    role: 'cfo',
    externalStoreId,
    page: 'dashboard',
  });
  const link = new URL(embed.data.embedUrl);
  const redeemed = await fetch(`${base}${link.pathname}${link.search}`, { redirect: 'manual' });
  const sessionCookie = redeemed.headers.get('set-cookie')?.split(';')[0];
  if (!sessionCookie) throw new Error(`seeding: the embed link answered ${redeemed.status} without a session cookie`);

  return {
    sessionCookie,
    defaultTenantId,
    tenantId,
    storeId,
    defaultStoreId: defaultStore.createStore.store.id,
    externalStoreId,
    invoiceId: invoice.id,
    vendorId: vendor.invoice.vendor.id,
    receiptId: receipt.data.uploadReceipt.id,
    itemId: made.item.id,
    employeeId: made.employee.id,
    scheduleId: made.schedule.id,
    shiftId: shift.shift.id,
    timeOffId: timeOff.data.request.id,
    profileName: shift.profile.name,
  };
}
