import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { insertTenant } from '../../src/modules/tenants/tenants.queries.ts';
import { gqlData, gqlUpload, http, requestStatements, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
const queries: string[] = [];
let partner: { partnerId: string; tenantId: string; apiKey: string };
let stranger: { partnerId: string; tenantId: string; apiKey: string };
let storeId: string;
let otherStoreId: string;
const emp = {} as Record<'cara' | 'dev' | 'eli' | 'gone', string>;
const key = (apiKey = partner.apiKey) => ({ 'x-api-key': apiKey });
const base = (tenantId = partner.tenantId) => `/api/v1/partner/tenants/${tenantId}/scheduling`;

const mutate = <T = any>(query: string, variables: Record<string, unknown> = {}, apiKey = partner.apiKey) => gqlData<T>(t.base, apiKey, query, variables);
const failure = (query: string, variables: Record<string, unknown> = {}) =>
  mutate(query, variables).then(
    () => {
      throw new Error('expected the mutation to fail');
    },
    (err: Error & { code: string }) => ({ message: err.message, code: err.code }),
  );

const EMPLOYEE = `mutation($i: CreateEmployeeInput!) { createEmployee(input: $i) { id } }`;
const SCHEDULE = `mutation($i: CreateScheduleInput!) { createSchedule(input: $i) { id status weekStart weekEnd } }`;
const SHIFT = `mutation($s: UUID!, $i: ShiftInput!) { addShift(scheduleId: $s, input: $i) { id hours employee { name } } }`;

beforeAll(async () => {
  t = await startTestApp({ onQuery: (q) => queries.push(q) });
  partner = await t.createPartner();
  stranger = await t.createPartner();
  await sql`update tenants set max_locations = 2 where id = ${partner.tenantId}`.execute(t.database.db);
  const store = await mutate(`mutation { createStore(input: { externalStoreId: "S1", name: "Main St", timezone: "America/Denver" }) { store { id } } }`);
  storeId = store.createStore.store.id;
  otherStoreId = (await mutate(`mutation { createStore(input: { externalStoreId: "S2" }) { store { id } } }`)).createStore.store.id;
  emp.cara = (await mutate(EMPLOYEE, { i: { storeId, name: 'Cara Diaz', email: 'Cara@Example.com', position: 'server', hourlyRate: 15.5 } })).createEmployee.id;
  emp.dev = (await mutate(EMPLOYEE, { i: { storeId, name: 'Dev Patel', position: 'line cook', hourlyRate: 21 } })).createEmployee.id;
  emp.eli = (await mutate(EMPLOYEE, { i: { storeId: otherStoreId, name: 'Eli Moss', hourlyRate: 18 } })).createEmployee.id;
  emp.gone = (await mutate(EMPLOYEE, { i: { storeId, name: 'Finn Gone', hourlyRate: 14 } })).createEmployee.id;
  await mutate(`mutation($id: UUID!) { updateEmployee(id: $id, input: { active: false }) { active } }`, { id: emp.gone });
});
afterAll(() => t?.close());

describe('employees', () => {
  test('the roster: active by default, includeInactive=true adds the others, storeId filters', async () => {
    const res = await http(t.base, 'GET', `${base()}/employees`, { headers: key() });
    expect(res.status).toBe(200);
    expect(res.body.data.employees.map((e: { name: string }) => e.name)).toEqual(['Cara Diaz', 'Dev Patel', 'Eli Moss']);
    expect(res.body.data.employees[0]).toEqual({
      id: emp.cara,
      storeId,
      name: 'Cara Diaz',
      email: 'cara@example.com',
      position: 'server',
      hourlyRate: 15.5,
      active: true,
      createdAt: expect.any(String),
    });
    const all = await http(t.base, 'GET', `${base()}/employees?includeInactive=true&storeId=${storeId}`, { headers: key() });
    expect(all.body.data.employees.map((e: { name: string }) => e.name)).toEqual(['Cara Diaz', 'Dev Patel', 'Finn Gone']);
    expect((await http(t.base, 'GET', `${base()}/employees?includeInactive=maybe`, { headers: key() })).status).toBe(400);
  });

  test('a second employee with the same email is 409; a negative rate is 400', async () => {
    expect(await failure(EMPLOYEE, { i: { storeId, name: 'Other Cara', email: 'cara@example.com', hourlyRate: 15 } })).toMatchObject({ code: 'CONFLICT' });
    expect(await failure(EMPLOYEE, { i: { storeId, name: 'X', hourlyRate: -1 } })).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: expect.stringMatching(/hourlyRate/),
    });
  });

  test('an update may send null for a field it leaves unchanged (the SDL allows it)', async () => {
    const { updateEmployee } = await mutate(
      `mutation($id: UUID!) { updateEmployee(id: $id, input: { name: null, hourlyRate: null, storeId: null }) { name hourlyRate } }`,
      { id: emp.dev },
    );
    expect(updateEmployee).toEqual({ name: 'Dev Patel', hourlyRate: 21 });
  });
});

describe('schedules and shifts', () => {
  let week: string;

  test('a schedule starts on a Sunday, one per store and week; shifts stay inside its week and never overlap', async () => {
    expect(await failure(SCHEDULE, { i: { storeId, weekStart: '2026-03-03' } })).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: expect.stringMatching(/must be a Sunday/),
    });
    // A week whose Saturday falls after 9999-12-31 was stored, then failed every read of its weekEnd (fuzzer).
    expect(await failure(SCHEDULE, { i: { storeId, weekStart: '9999-12-26' } })).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: expect.stringMatching(/from 1900-01-01 to 2999-12-31/),
    });
    const created = (await mutate(SCHEDULE, { i: { storeId, weekStart: '2026-03-01' } })).createSchedule;
    expect(created).toMatchObject({ status: 'draft', weekStart: '2026-03-01', weekEnd: '2026-03-07' });
    week = created.id;
    expect(await failure(SCHEDULE, { i: { storeId, weekStart: '2026-03-01' } })).toMatchObject({ code: 'CONFLICT' });

    // Denver is UTC−7 on 03-01 … 03-07 (daylight time starts 03-08)
    const shift = await mutate(SHIFT, {
      s: week,
      i: { employeeId: emp.cara, startsAt: '2026-03-02T16:00:00Z', endsAt: '2026-03-02T23:30:00Z', breakMinutes: 30, position: 'patio' },
    });
    expect(shift.addShift).toMatchObject({ hours: 7, employee: { name: 'Cara Diaz' } });
    await mutate(SHIFT, { s: week, i: { employeeId: emp.dev, startsAt: '2026-03-07T22:00:00Z', endsAt: '2026-03-08T06:00:00Z' } }); // Sat 15:00–23:00 local
    expect(await failure(SHIFT, { s: week, i: { employeeId: emp.cara, startsAt: '2026-03-02T20:00:00Z', endsAt: '2026-03-03T01:00:00Z' } })).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/Cara Diaz already has a shift/),
    });
    // Sunday 03-08 02:00 UTC is still Saturday evening in Denver, so it is inside the week; 07:30 UTC is not
    await mutate(SHIFT, { s: week, i: { employeeId: emp.cara, startsAt: '2026-03-08T02:00:00Z', endsAt: '2026-03-08T05:00:00Z' } });
    expect(await failure(SHIFT, { s: week, i: { employeeId: emp.cara, startsAt: '2026-03-08T07:30:00Z', endsAt: '2026-03-08T12:00:00Z' } })).toMatchObject({
      message: expect.stringMatching(/falls on 2026-03-08 \(America\/Denver\), outside the schedule's week 2026-03-01 to 2026-03-07/),
    });
    expect(await failure(SHIFT, { s: week, i: { employeeId: emp.cara, startsAt: '2026-03-04T16:00:00Z', endsAt: '2026-03-05T17:00:00Z' } })).toMatchObject({
      message: expect.stringMatching(/at most 24 hours/),
    });
    expect(await failure(SHIFT, { s: week, i: { employeeId: emp.gone, startsAt: '2026-03-04T16:00:00Z', endsAt: '2026-03-04T20:00:00Z' } })).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/inactive/),
    });
  });

  test('GET one schedule: its shifts joined to employees, in a constant number of queries', async () => {
    // A tenant's ownership, once read, is remembered (tenants.service.ts): an earlier request has read it.
    await http(t.base, 'GET', `${base()}/schedules/${week}`, { headers: key() });
    t.app.services.authenticate.forget(); // the key is looked up, not taken from the principal cache
    queries.length = 0;
    const res = await http(t.base, 'GET', `${base()}/schedules/${week}`, { headers: key() });
    expect(res.status).toBe(200);
    const s = res.body.data.schedule;
    expect(s).toMatchObject({ id: week, storeId, weekStart: '2026-03-01', weekEnd: '2026-03-07', status: 'draft', totalHours: 18, publishedAt: null });
    expect(s.shifts.map((x: { employee: { name: string } }) => x.employee.name)).toEqual(['Cara Diaz', 'Dev Patel', 'Cara Diaz']);
    expect(s.shifts[0]).toMatchObject({ breakMinutes: 30, hours: 7, position: 'patio', employee: { id: emp.cara, hourlyRate: 15.5 } });
    // auth, the schedule, its shifts, the partner's tenants, the employees (one batch)
    expect(requestStatements(queries), requestStatements(queries).join('\n')).toHaveLength(5);
    expect(queries.filter((q) => q.includes('from "employees"'))).toHaveLength(1);
  });

  test('draft → published → archived; other moves are 409; an archived schedule is read-only', async () => {
    const publish = `mutation($id: UUID!) { publishSchedule(id: $id) { status publishedAt } }`;
    expect((await mutate(publish, { id: week })).publishSchedule).toMatchObject({ status: 'published', publishedAt: expect.any(String) });
    expect(await failure(publish, { id: week })).toMatchObject({ code: 'CONFLICT', message: 'schedule is already published; it cannot become published' });
    await mutate(`mutation($id: UUID!) { archiveSchedule(id: $id) { status } }`, { id: week });
    expect(await failure(publish, { id: week })).toMatchObject({ code: 'CONFLICT' });
    expect(await failure(SHIFT, { s: week, i: { employeeId: emp.dev, startsAt: '2026-03-03T16:00:00Z', endsAt: '2026-03-03T20:00:00Z' } })).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/archived/),
    });
  });

  test('GET schedules: the latest 100 by week descending, filtered by status and store', async () => {
    for (let i = 1; i <= 101; i++) {
      const d = new Date(Date.UTC(2026, 2, 1 + 7 * i)).toISOString().slice(0, 10);
      await t.app.services.scheduling.createSchedule(partner.tenantId, { storeId: i % 2 ? storeId : otherStoreId, weekStart: d });
    }
    const res = await http(t.base, 'GET', `${base()}/schedules`, { headers: key() });
    expect(res.status).toBe(200);
    const weeks = res.body.data.schedules.map((s: { weekStart: string }) => s.weekStart);
    expect(weeks).toHaveLength(100);
    expect(weeks[0]).toBe('2028-02-06');
    expect([...weeks].sort().reverse()).toEqual(weeks);
    expect(res.body.data.schedules[0].shifts).toBeUndefined();
    const archived = await http(t.base, 'GET', `${base()}/schedules?status=archived`, { headers: key() });
    expect(archived.body.data.schedules.map((s: { id: string }) => s.id)).toEqual([week]);
    const atOther = await http(t.base, 'GET', `${base()}/schedules?storeId=${otherStoreId}`, { headers: key() });
    expect(atOther.body.data.schedules.every((s: { storeId: string }) => s.storeId === otherStoreId)).toBe(true);
    expect(atOther.body.data.schedules).toHaveLength(50);
    const bad = await http(t.base, 'GET', `${base()}/schedules?status=finished`, { headers: key() });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('status must be one of draft, published, archived (got "finished")');
  });

  test("a schedule of another tenant — the partner's own or someone else's — is 404 under this tenant", async () => {
    const second = await insertTenant(t.database.db, partner.partnerId, { name: 'Second brand' });
    expect((await http(t.base, 'GET', `${base(second.id)}/schedules/${week}`, { headers: key() })).status).toBe(404);
    const res = await http(t.base, 'GET', `${base(stranger.tenantId)}/schedules/${week}`, { headers: key(stranger.apiKey) });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('schedule not found');
    expect((await http(t.base, 'GET', `${base(stranger.tenantId)}/schedules`, { headers: key() })).status).toBe(404);
  });
});

describe('time off', () => {
  test('POST creates a pending request (201); GET lists the latest, filtered by status and employee', async () => {
    const res = await http(t.base, 'POST', `${base()}/time-off`, {
      headers: key(),
      json: { employeeId: emp.cara, startDate: '2026-04-10', endDate: '2026-04-12', reason: 'wedding' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        request: {
          id: expect.any(String),
          employeeId: emp.cara,
          startDate: '2026-04-10',
          endDate: '2026-04-12',
          reason: 'wedding',
          status: 'pending',
          decidedBy: null,
          decidedAt: null,
          createdAt: expect.any(String),
        },
      },
    });
    const one = await http(t.base, 'POST', `${base()}/time-off`, {
      headers: key(),
      json: { employeeId: emp.dev, startDate: '2026-05-01', endDate: '2026-05-01' },
    });
    expect(one.status).toBe(201);
    const decided = await mutate(
      `mutation($id: UUID!) { decideTimeOff(id: $id, decision: approved, decidedBy: "GM") { status decidedBy decidedAt employee { name } } }`,
      { id: one.body.data.request.id },
    );
    expect(decided.decideTimeOff).toMatchObject({ status: 'approved', decidedBy: 'GM', decidedAt: expect.any(String), employee: { name: 'Dev Patel' } });
    expect(await failure(`mutation($id: UUID!) { decideTimeOff(id: $id, decision: denied) { status } }`, { id: one.body.data.request.id })).toMatchObject({
      code: 'CONFLICT',
      message: 'time-off request is already approved',
    });

    const pending = await http(t.base, 'GET', `${base()}/time-off?status=pending`, { headers: key() });
    expect(pending.body.data.requests.map((r: { reason: string }) => r.reason)).toEqual(['wedding']);
    const devs = await http(t.base, 'GET', `${base()}/time-off?employeeId=${emp.dev}`, { headers: key() });
    expect(devs.body.data.requests.map((r: { status: string }) => r.status)).toEqual(['approved']);
  });

  test.each([
    [{ employeeId: 'CARA', startDate: '2026-04-12', endDate: '2026-04-10' }, 400, /endDate must not be before startDate \(2026-04-12\)/],
    [{ employeeId: 'CARA', startDate: '2026-04-12' }, 400, /endDate is required/],
    [{ employeeId: 'CARA', startDate: '12/04/2026', endDate: '2026-04-13' }, 400, /startDate/],
    [{ employeeId: 'NOBODY', startDate: '2026-04-12', endDate: '2026-04-13' }, 404, /employee not found/],
    [{ employeeId: 'GONE', startDate: '2026-04-12', endDate: '2026-04-13' }, 409, /employee Finn Gone is inactive/],
  ])('POST %j → %i', async (body, status, message) => {
    const employeeId = { CARA: emp.cara, GONE: emp.gone }[body.employeeId] ?? '3f2b1c4d-0000-4000-8000-000000000000';
    const res = await http(t.base, 'POST', `${base()}/time-off`, { headers: key(), json: { ...body, employeeId } });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatch(message);
  });

  test('GET returns the latest 200', async () => {
    for (let i = 0; i < 205; i++) {
      await t.app.services.scheduling.requestTimeOff(partner.tenantId, {
        employeeId: emp.eli,
        startDate: '2026-06-01',
        endDate: '2026-06-02',
        reason: `r${i}`,
      });
      // The embedded database's clock counts milliseconds: requests made within one tie on created_at, and the
      // list's order among them is the id's. Apart, "latest" is well defined.
      await new Promise((r) => setTimeout(r, 2));
    }
    const res = await http(t.base, 'GET', `${base()}/time-off`, { headers: key() });
    expect(res.body.data.requests).toHaveLength(200);
    expect(res.body.data.requests[0].reason).toBe('r204');
  });
});

describe('punches and point-of-sale sales', () => {
  const PUNCH = `mutation($i: TimePunchInput!) { recordTimePunch(input: $i) { id storeId clockOut hours } }`;

  test('a punch defaults to the employee store; overlapping punches are 409; clock in then clock out', async () => {
    const p = await mutate(PUNCH, { i: { employeeId: emp.eli, clockIn: '2026-03-02T15:00:00Z', clockOut: '2026-03-02T23:00:00Z' } });
    expect(p.recordTimePunch).toMatchObject({ storeId: otherStoreId, hours: 8 });
    expect(await failure(PUNCH, { i: { employeeId: emp.eli, clockIn: '2026-03-02T22:00:00Z', clockOut: '2026-03-03T01:00:00Z' } })).toMatchObject({
      code: 'CONFLICT',
    });
    expect(await failure(PUNCH, { i: { employeeId: emp.eli, clockIn: '2099-01-01T00:00:00Z' } })).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'clockIn must not be in the future',
    });
    expect(await failure(PUNCH, { i: { employeeId: emp.gone, clockIn: '2026-03-02T15:00:00Z', clockOut: '2026-03-02T16:00:00Z' } })).toMatchObject({
      code: 'CONFLICT',
      message: 'employee Finn Gone is inactive',
    });
    const clockIn = new Date(Date.now() - 3_600_000).toISOString();
    const open = await mutate(PUNCH, { i: { employeeId: emp.dev, clockIn } });
    expect(open.recordTimePunch).toMatchObject({ clockOut: null, hours: null });
    expect(await failure(PUNCH, { i: { employeeId: emp.dev, clockIn: new Date().toISOString() } })).toMatchObject({
      code: 'CONFLICT',
      message: 'Dev Patel is already clocked in',
    });
    const out = await mutate(`mutation($e: UUID!) { clockOut(employeeId: $e) { id hours } }`, { e: emp.dev });
    expect(out.clockOut.id).toBe(open.recordTimePunch.id);
    expect(out.clockOut.hours).toBeCloseTo(1, 1);
    expect(await failure(`mutation($e: UUID!) { clockOut(employeeId: $e) { id } }`, { e: emp.dev })).toMatchObject({
      code: 'CONFLICT',
      message: 'Dev Patel is not clocked in',
    });
  });

  test('a POS CSV with bad rows is refused whole, naming each row', async () => {
    const csv = 'Date,Net Sales\n2026-03-01,100\n2026-03-02,abc\n03/31/2026,"1,234.50"\n2026-02-30,5\n2026-03-01,7\n';
    const res = await gqlUpload(
      t.base,
      partner.apiKey,
      `mutation($s: UUID!, $file: Upload!) { importPosSales(storeId: $s, file: $file) { days } }`,
      { file: Buffer.from(csv) },
      { variables: { s: storeId }, ext: 'csv' },
    );
    expect(res.body.errors?.[0]?.message).toBe(
      'file has 3 bad row(s): row 3: net sales "abc" is not an amount; row 5: date "2026-02-30" is not YYYY-MM-DD or M/D/YYYY; row 6: 2026-03-01 appears twice',
    );
    const [{ n }] = (await sql<{ n: string }>`select count(*) as n from pos_daily_sales where store_id = ${storeId}`.execute(t.database.db)).rows as [
      { n: string },
    ];
    expect(Number(n)).toBe(0);
    const header = await gqlUpload(
      t.base,
      partner.apiKey,
      `mutation($s: UUID!, $file: Upload!) { importPosSales(storeId: $s, file: $file) { days } }`,
      { file: Buffer.from('day,amount\n2026-03-01,5\n') },
      { variables: { s: storeId }, ext: 'csv' },
    );
    expect(header.body.errors?.[0]?.message).toMatch(/header must name a date column/);
  });
});

describe('scopes and envelopes', () => {
  test('GET needs scheduling:read and POST scheduling:write; a foreign tenant is 404', async () => {
    const inventoryOnly = (await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['inventory:read', 'inventory:write'] })).apiKey;
    const readOnly = (await t.app.services.partners.createApiKey({ partnerId: partner.partnerId, scopes: ['scheduling:read'] })).apiKey;
    for (const path of ['schedules', `schedules/${'3f2b1c4d-0000-4000-8000-000000000000'}`, 'employees', 'time-off', 'labor-report']) {
      const res = await http(t.base, 'GET', `${base()}/${path}`, { headers: key(inventoryOnly) });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toMatch(/scheduling:read/);
    }
    expect((await http(t.base, 'GET', `${base()}/employees`, { headers: key(readOnly) })).status).toBe(200);
    const post = await http(t.base, 'POST', `${base()}/time-off`, {
      headers: key(readOnly),
      json: { employeeId: emp.cara, startDate: '2026-04-10', endDate: '2026-04-12' },
    });
    expect(post.status).toBe(403);
    for (const path of ['schedules', 'employees', 'time-off', 'labor-report']) {
      expect((await http(t.base, 'GET', `${base(stranger.tenantId)}/${path}`, { headers: key() })).status, path).toBe(404);
    }
    const strangerStore = (await t.app.services.tenants.createStore(stranger.tenantId, { externalStoreId: 'Z' })).store.id;
    for (const path of [`employees?storeId=${strangerStore}`, `schedules?storeId=${strangerStore}`, `labor-report?storeId=${strangerStore}`]) {
      const res = await http(t.base, 'GET', `${base()}/${path}`, { headers: key() });
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe('store not found');
    }
  });
});
