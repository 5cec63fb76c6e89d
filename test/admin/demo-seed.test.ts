import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { liveLockHolder } from '../../src/app/admin/data-dir-lock.ts';
import { DEMO_PARTNER_NAME, type DemoSeedSummary, seedDemo } from '../../src/app/admin/demo-seed.ts';
import { localInstant } from '../../src/app/admin/demo-data.ts';
import { addDays, dayOfWeek } from '../../src/platform/lib/timezone.ts';
import { http, startTestApp, type TestApp } from '../helpers/app.ts';
import { ROOT, startServerProcess } from '../helpers/process.ts';

// `npm run seed -- --demo`: the seed function into a test app (its figures read back over REST, validated
// against the OpenAPI contract), then the command itself beside a real server process.

let t: TestApp;
let demo: DemoSeedSummary;
let seedMs: number;
const now = new Date();
const key = () => ({ 'x-api-key': demo.apiKey });
const get = (url: string) => http(t.base, 'GET', `/api/v1/partner/tenants/${demo.tenantId}${url}`, { headers: key() });
const report = async (qs = '') => {
  const res = await get(`/scheduling/labor-report?startDate=${demo.startDate}&endDate=${demo.endDate}${qs}`);
  expect(res.status).toBe(200);
  return res.body.data;
};
const near = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(0.05);
const total = <T>(rows: T[], f: (r: T) => number) => rows.reduce((a, r) => a + f(r), 0);

beforeAll(async () => {
  t = await startTestApp();
  const started = performance.now();
  demo = await seedDemo(t.app.services, t.database.db, { now });
  seedMs = performance.now() - started;
}, 120_000);
afterAll(() => t?.close());

/** The tenant's seeded rows, with ids replaced by names, in a stable order. */
async function fingerprint(tenantId: string) {
  const db = t.database.db;
  const q = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows;
  return {
    shifts: await q(sql`
      select e.name, st.external_store_id, sc.week_start::text, sc.status, sh.starts_at, sh.ends_at, sh.break_minutes, sh.notes
      from shifts sh join schedules sc on sc.id = sh.schedule_id join stores st on st.id = sc.store_id join employees e on e.id = sh.employee_id
      where sc.tenant_id = ${tenantId} order by e.name, sh.starts_at`),
    punches: await q(sql`
      select e.name, st.external_store_id, p.clock_in, p.clock_out
      from time_punches p join employees e on e.id = p.employee_id join stores st on st.id = p.store_id
      where p.tenant_id = ${tenantId} order by e.name, p.clock_in`),
    sales: await q(sql`
      select st.external_store_id, s.business_date::text, s.net_sales::text
      from pos_daily_sales s join stores st on st.id = s.store_id where s.tenant_id = ${tenantId} order by 1, 2`),
    counts: await q(sql`
      select i.sku, st.external_store_id, c.quantity::text, c.unit, c.base_quantity::text, c.counted_at, c.counted_by, c.notes
      from inventory_counts c join inventory_items i on i.id = c.item_id join stores st on st.id = c.store_id
      where c.tenant_id = ${tenantId} order by 1, 2, c.counted_at`),
    timeOff: await q(sql`
      select e.name, r.start_date::text, r.end_date::text, r.reason, r.status, r.decided_by
      from time_off_requests r join employees e on e.id = r.employee_id where r.tenant_id = ${tenantId} order by 1, 2`),
  };
}

/** Equal, numbers within a cent. */
function expectClose(actual: unknown, expected: unknown, at = 'report'): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    expect(Math.abs(actual - expected), at).toBeLessThanOrEqual(0.0100001);
  } else if (expected && typeof expected === 'object') {
    expect(typeof actual, at).toBe('object');
    expect(Object.keys(actual as object).sort(), at).toEqual(Object.keys(expected).sort());
    for (const [k, v] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[k], v, `${at}.${k}`);
  } else {
    expect(actual, at).toEqual(expected);
  }
}

describe('seedDemo', () => {
  test('a demo partner of tier embed whose key works, over the month ending today (UTC), in well under a minute', async () => {
    expect(seedMs).toBeLessThan(45_000);
    expect(demo.endDate).toBe(now.toISOString().slice(0, 10));
    expect(demo.startDate).toBe(addDays(demo.endDate, -29));
    const viewer = await http(t.base, 'POST', '/graphql', { headers: key(), json: { query: '{ viewer { name tier tenants { id } } }' } });
    expect(viewer.body.data.viewer).toEqual({ name: DEMO_PARTNER_NAME, tier: 'embed', tenants: [{ id: demo.tenantId }] });
    // A month of vendor invoices, read from their PDFs and kept with them; the P&L has its cost of goods.
    expect(demo.counts.invoices).toBeGreaterThanOrEqual(60);
    const pnl = await http(t.base, 'POST', '/graphql', {
      headers: key(),
      json: {
        query: `{ profitAndLoss(period: custom, startDate: "${demo.startDate}", endDate: "${demo.endDate}") { invoiceCount costOfGoodsPercent laborPercent primeCostPercent } }`,
      },
    });
    const p = pnl.body.data.profitAndLoss;
    expect(p.invoiceCount).toBe(demo.counts.invoices);
    expect(p.costOfGoodsPercent).toBeGreaterThan(20);
    expect(p.costOfGoodsPercent).toBeLessThan(40);
    expect(p.primeCostPercent).toBeGreaterThan(45);
    expect(p.primeCostPercent).toBeLessThan(70);
    expect(demo.laborReportPath).toBe(`/api/v1/partner/tenants/${demo.tenantId}/scheduling/labor-report?startDate=${demo.startDate}&endDate=${demo.endDate}`);
  });

  test('3 stores in 3 US time zones, 20 active employees spread over them with realistic positions and rates', async () => {
    expect(demo.stores).toHaveLength(3);
    expect(new Set(demo.stores.map((s) => s.timezone))).toEqual(new Set(['America/New_York', 'America/Chicago', 'America/Los_Angeles']));
    const res = await get('/scheduling/employees');
    expect(res.status).toBe(200);
    const employees: Array<{ storeId: string; position: string; hourlyRate: number; active: boolean }> = res.body.data.employees;
    expect(employees).toHaveLength(20);
    expect(demo.counts.employees).toBe(20);
    for (const store of demo.stores) {
      const mine = employees.filter((e) => e.storeId === store.id);
      expect(mine.length).toBe(store.employees);
      expect(mine.length).toBeGreaterThanOrEqual(6);
      expect(mine.some((e) => e.position === 'manager' || e.position === 'shift lead')).toBe(true);
    }
    for (const e of employees) {
      expect(e.active).toBe(true);
      expect(e.hourlyRate).toBeGreaterThanOrEqual(14);
      expect(e.hourlyRate).toBeLessThanOrEqual(32);
    }
    expect(new Set(employees.map((e) => e.position))).toEqual(
      new Set(['manager', 'shift lead', 'line cook', 'prep cook', 'server', 'bartender', 'host', 'dishwasher']),
    );
  });

  test('one schedule per store and week: older weeks archived, last and this week published, next week a draft', async () => {
    const res = await get('/scheduling/schedules');
    expect(res.status).toBe(200);
    const schedules: Array<{ storeId: string; weekStart: string; status: string; totalHours: number }> = res.body.data.schedules;
    const thisWeek = addDays(demo.endDate, -dayOfWeek(demo.endDate));
    const weeks: string[] = [];
    for (let w = addDays(demo.startDate, -dayOfWeek(demo.startDate)); w <= addDays(thisWeek, 7); w = addDays(w, 7)) weeks.push(w);
    expect(schedules).toHaveLength(weeks.length * 3);
    for (const week of weeks) {
      const inWeek = schedules.filter((s) => s.weekStart === week);
      expect(new Set(inWeek.map((s) => s.storeId))).toEqual(new Set(demo.stores.map((s) => s.id)));
      const expected = week > thisWeek ? 'draft' : week < addDays(thisWeek, -7) ? 'archived' : 'published';
      for (const s of inWeek) {
        expect(s.status).toBe(expected);
        expect(s.totalHours).toBeGreaterThan(150); // 6–7 people × 5–6 shifts of 6–9 h
      }
    }
    expect(demo.counts.schedules).toEqual({
      published: schedules.filter((s) => s.status === 'published').length,
      archived: schedules.filter((s) => s.status === 'archived').length,
      draft: 3,
    });
  });

  test('shifts start on the hour or half hour of the store clock (across DST changes), 6–9 h, one a day per employee', async () => {
    const { rows } = await sql<{ local: string; hours: string; breakMinutes: number; perDay: string }>`
      select to_char(sh.starts_at at time zone st.timezone, 'HH24:MI') as local,
             extract(epoch from sh.ends_at - sh.starts_at) / 3600 as hours, sh.break_minutes,
             count(*) over (partition by sh.employee_id, (sh.starts_at at time zone st.timezone)::date) as per_day
      from shifts sh join schedules sc on sc.id = sh.schedule_id join stores st on st.id = sc.store_id
      where sc.tenant_id = ${demo.tenantId}`.execute(t.database.db);
    expect(rows).toHaveLength(demo.counts.shifts);
    for (const r of rows) {
      expect(r.local).toMatch(/^(0[6-9]|1[0-7]):(00|30)$/);
      expect(Number(r.hours)).toBeGreaterThanOrEqual(6);
      expect(Number(r.hours)).toBeLessThanOrEqual(9);
      expect([0, 30]).toContain(r.breakMinutes);
      expect(Number(r.perDay)).toBe(1);
    }
    expect(rows.filter((r) => r.breakMinutes === 30).length).toBeGreaterThan(rows.length / 4);
    // Whatever today is, the zone arithmetic itself holds on both sides of a DST change.
    expect(localInstant('2026-03-07', 9 * 60, 'America/New_York').toISOString()).toBe('2026-03-07T14:00:00.000Z');
    expect(localInstant('2026-03-09', 9 * 60, 'America/New_York').toISOString()).toBe('2026-03-09T13:00:00.000Z');
    expect(localInstant('2026-10-31', 25 * 60, 'America/Los_Angeles').toISOString()).toBe('2026-11-01T08:00:00.000Z');
  });

  test('the labor report over the demo month: ≥ 15 employees, overtime, sales, and its weeks add up to its summary', async () => {
    const { summary, weekly, employees } = await report();
    expect(employees.length).toBeGreaterThanOrEqual(15);
    expect(summary.employeeCount).toBe(employees.length);
    expect(summary.overtimeHours).toBeGreaterThan(0);
    expect(summary.overtimeCost).toBeGreaterThan(0);
    expect(summary.netSales).toBeGreaterThan(0);
    expect(summary.scheduledHours).toBeGreaterThan(2000);
    expect(summary.actualHours).toBeGreaterThan(2000);
    // Punches drift from the shifts but a restaurant's month stays close to plan, at a plausible labor cost.
    expect(Math.abs(summary.variancePercent)).toBeLessThan(10);
    expect(summary.laborCostPercent).toBeGreaterThan(15);
    expect(summary.laborCostPercent).toBeLessThan(40);
    expect(employees.filter((e: { overtimeHours: number }) => e.overtimeHours > 0).length).toBeGreaterThanOrEqual(3);
    expect(employees.filter((e: { varianceHours: number }) => e.varianceHours !== 0).length).toBeGreaterThanOrEqual(15);

    expect(weekly.length).toBeGreaterThanOrEqual(5);
    for (const field of ['scheduledHours', 'actualHours', 'overtimeHours', 'laborCost', 'netSales'] as const) {
      near(
        total(weekly, (w: Record<string, number>) => w[field]!),
        summary[field],
      );
    }
    for (const field of ['scheduledHours', 'actualHours', 'overtimeHours', 'laborCost'] as const) {
      near(
        total(employees, (e: Record<string, number>) => e[field]!),
        summary[field],
      );
    }
    // Three stores sell about $65k in a whole week.
    for (const w of weekly.filter((w: { partial: boolean }) => !w.partial)) expect(w.netSales).toBeGreaterThan(40_000);
  });

  test('the three stores’ reports add up to the tenant’s; a whole week’s scheduled hours are its three schedules’ totals', async () => {
    const tenant = await report();
    const stores = await Promise.all(demo.stores.map((s) => report(`&storeId=${s.id}`)));
    for (const field of ['scheduledHours', 'actualHours', 'overtimeHours', 'laborCost', 'netSales'] as const) {
      near(
        total(stores, (r) => r.summary[field]),
        tenant.summary[field],
      );
    }
    for (const r of stores) {
      expect(r.summary.netSales).toBeGreaterThan(0);
      expect(r.summary.actualHours).toBeGreaterThan(0);
    }
    const schedules: Array<{ weekStart: string; totalHours: number }> = (await get('/scheduling/schedules')).body.data.schedules;
    const whole = tenant.weekly.filter((w: { partial: boolean }) => !w.partial);
    expect(whole.length).toBeGreaterThanOrEqual(3);
    for (const w of whole) {
      near(
        total(
          schedules.filter((s) => s.weekStart === w.weekStart),
          (s) => s.totalHours,
        ),
        w.scheduledHours,
      );
    }
  });

  test('POS sales: one row per store and closed business day, weekends higher than weekdays', async () => {
    const { rows } = await sql<{ dow: number; avg: string; days: string }>`
      select extract(dow from business_date)::int as dow, avg(net_sales) as avg, count(*) as days
      from pos_daily_sales where tenant_id = ${demo.tenantId} group by 1 order by 1`.execute(t.database.db);
    expect(total(rows, (r) => Number(r.days))).toBe(demo.counts.salesDays);
    const avg = (d: number) => Number(rows.find((r) => r.dow === d)!.avg);
    for (const weekday of [1, 2, 3, 4]) {
      expect(avg(5)).toBeGreaterThan(avg(weekday));
      expect(avg(6)).toBeGreaterThan(avg(weekday));
    }
    const { rows: last } = await sql<{ max: string }>`select max(business_date)::text as max from pos_daily_sales where tenant_id = ${demo.tenantId}`.execute(
      t.database.db,
    );
    expect(last[0]!.max).toBe(addDays(demo.endDate, -1));
  });

  test('inventory: ~30 items in cost categories with pack sizes, counted at every store, some in cases; positive value', async () => {
    const items = (await get('/inventory/items')).body.data.items as Array<{
      category: string;
      unit: string;
      packSizes: unknown[];
      defaultCost: number;
      parLevel: number;
    }>;
    expect(items.length).toBeGreaterThanOrEqual(30);
    expect(new Set(items.map((i) => i.category)).size).toBeGreaterThanOrEqual(8);
    expect(['each', 'lb', 'gal', 'qt', 'bottle'].every((u) => items.some((i) => i.unit === u))).toBe(true);
    expect(items.filter((i) => i.packSizes.length > 0).length).toBeGreaterThanOrEqual(25);
    expect(items.every((i) => i.defaultCost > 0 && i.parLevel > 0)).toBe(true);

    const summary = await get('/inventory/summary');
    expect(summary.status).toBe(200);
    expect(summary.body.data.totalInventoryValue).toBeGreaterThan(0);
    expect(summary.body.data.itemCount).toBe(items.length);
    let perStore = 0;
    for (const store of demo.stores) {
      const s = await get(`/inventory/summary?storeId=${store.id}`);
      expect(s.body.data.totalInventoryValue).toBeGreaterThan(0);
      perStore += s.body.data.totalInventoryValue;
      const counts = (await get(`/inventory/counts/${store.id}`)).body.data.counts as Array<{
        quantity: number;
        unit: string;
        baseQuantity: number;
        item: { unit: string; packSizes: Array<{ unit: string; quantity: number }> };
      }>;
      expect(counts.length).toBeGreaterThanOrEqual(30);
      const inPacks = counts.filter((c) => c.unit !== c.item.unit);
      expect(inPacks.length).toBeGreaterThan(0);
      for (const c of inPacks) {
        const pack = c.item.packSizes.find((p) => p.unit === c.unit)!;
        expect(c.baseQuantity).toBeCloseTo(c.quantity * pack.quantity, 4);
      }
    }
    near(perStore, summary.body.data.totalInventoryValue);
    expect(demo.counts.inventoryCounts).toBeGreaterThanOrEqual(demo.counts.inventoryItems * 2 * 2);
  });

  test('time-off requests in every state', async () => {
    const requests = (await get('/scheduling/time-off')).body.data.requests as Array<{ status: string; decidedBy: string | null }>;
    for (const status of ['pending', 'approved', 'denied'] as const) {
      const mine = requests.filter((r) => r.status === status);
      expect(mine.length).toBe(demo.counts.timeOff[status]);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      for (const r of mine) expect(r.decidedBy === null).toBe(status === 'pending');
    }
  });

  test('a second run is refused naming the partner; after removing it, the same `now` seeds the very same month', async () => {
    await expect(seedDemo(t.app.services, t.database.db, { now })).rejects.toThrow(`the demo partner already exists (partnerId ${demo.partnerId})`);
    const before = { data: await fingerprint(demo.tenantId), report: await report() };
    expect(before.data.shifts).toHaveLength(demo.counts.shifts);
    expect(before.data.punches).toHaveLength(demo.counts.punches);
    expect(before.data.sales).toHaveLength(demo.counts.salesDays);
    expect(before.data.counts).toHaveLength(demo.counts.inventoryCounts);
    expect(before.data.timeOff).toHaveLength(7);
    await t.database.db.deleteFrom('partners').where('id', '=', demo.partnerId).execute();
    const first = demo;
    demo = await seedDemo(t.app.services, t.database.db, { now });
    expect(demo.partnerId).not.toBe(first.partnerId);
    expect(demo.counts).toEqual(first.counts);
    // Every shift, punch, sale, count and request, to the second and the cent.
    const after = { data: await fingerprint(demo.tenantId), report: await report() };
    expect(after.data).toEqual(before.data);
    // The report's figures agree to the cent. (Not always exactly: it sums unordered float rows and rounds once,
    // so a total that lands on half a cent can round either way when the row order changes; see the hand-off notes.)
    const strip = (es: Array<Record<string, unknown>>) => es.map(({ employeeId: _e, storeId: _s, ...rest }) => rest);
    expectClose({ ...after.report, employees: strip(after.report.employees) }, { ...before.report, employees: strip(before.report.employees) });
  }, 60_000);
});

describe('npm run seed', () => {
  const DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'partner-api-seed-'));
  const ENV = {
    ...process.env,
    DATA_DIR,
    DATABASE_URL: '', // the embedded database under DATA_DIR, whatever the shell exported
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    METADATA_SERVER_DETECTION: 'none',
    EMBEDDINGS_CACHE_DIR: inject('wordVectorCacheDir'),
  };
  const running: ChildProcess[] = [];
  afterAll(async () => {
    const exits = running.filter((p) => p.exitCode === null).map((p) => new Promise((r) => p.once('exit', r)).then(() => p));
    running.forEach((p) => p.exitCode === null && p.kill('SIGKILL'));
    await Promise.all(exits);
    rmSync(DATA_DIR, { recursive: true, force: true });
  });

  // `npm run seed -- …` runs dist/cli.js seed …; the test runs the same CLI from the sources through tsx.
  function seedCommand(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'seed', ...args], { cwd: ROOT, env: ENV });
    running.push(proc);
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    return new Promise((r) => proc.on('exit', (code) => r({ code, stdout, stderr })));
  }

  test('without --demo: usage, exit 2, nothing opened', async () => {
    const res = await seedCommand();
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^usage: npm run seed -- --demo/);
    expect(existsSync(path.join(DATA_DIR, 'pgdata'))).toBe(false);
    expect((await seedCommand('--demo=yes')).code).toBe(2);
  });

  test('as the README says (`npm run --silent seed -- --demo`) on a fresh data directory with no server: seeded, then served', async () => {
    const fresh = mkdtempSync(path.join(os.tmpdir(), 'partner-api-seed-fresh-'));
    try {
      const env = { ...ENV, DATA_DIR: fresh };
      const npm = spawn('npm', ['run', '--silent', 'seed', '--', '--demo'], { cwd: ROOT, env });
      running.push(npm);
      let stdout = '';
      let stderr = '';
      npm.stdout.on('data', (d) => (stdout += d));
      npm.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((r) => npm.on('exit', r));
      expect(code, stderr).toBe(0);
      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const out = JSON.parse(lines[0]!) as DemoSeedSummary & { laborReportCurl: string };
      expect(out.counts).toMatchObject({ stores: 3, employees: 20 });
      expect(out.counts.invoices).toBeGreaterThan(0);
      expect(stderr).toContain(out.laborReportCurl);

      // What the README says next: `npm start` on that directory serves the demo with the printed key.
      const server = await startServerProcess(env, running);
      const get = async (url: string) => {
        const res = await fetch(`${server.base}${url}`, { headers: { 'x-api-key': out.apiKey } });
        return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
      };
      const labor = await get(out.laborReportPath);
      expect(labor.status).toBe(200);
      expect((labor.body.data.employees as unknown[]).length).toBeGreaterThanOrEqual(15);
      // The seeded invoices were indexed for search by the command (it opened the embedder, as the server does).
      const search = await get('/api/v1/partner/search?q=produce');
      expect(search.status).toBe(200);
      expect((search.body.data.results as Array<{ type: string }>).some((r) => r.type === 'invoice')).toBe(true);
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 180_000);

  test('beside a running server it goes through the admin endpoint: one JSON line, a working curl; again: refused', async () => {
    const server = await startServerProcess(ENV, running);
    const res = await seedCommand('--demo');
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(out).toMatchObject({ counts: { stores: 3, employees: 20 } });
    expect(out.stores).toHaveLength(3);
    expect(out.apiKey).toMatch(/^pk_/);
    const port = new URL(server.base).port;
    expect(out.laborReportCurl).toBe(`curl -H 'X-API-Key: ${out.apiKey}' 'http://localhost:${port}${out.laborReportPath}'`);
    expect(res.stderr).toContain(out.laborReportCurl);

    const url = /'(http:\/\/[^']+)'$/.exec(out.laborReportCurl)![1]!.replace('localhost', '127.0.0.1');
    const labor = await fetch(url, { headers: { 'x-api-key': out.apiKey } });
    expect(labor.status).toBe(200);
    const body = (await labor.json()) as { data: { summary: { overtimeHours: number; netSales: number }; employees: unknown[] } };
    expect(body.data.employees.length).toBeGreaterThanOrEqual(15);
    expect(body.data.summary.overtimeHours).toBeGreaterThan(0);
    expect(body.data.summary.netSales).toBeGreaterThan(0);

    const again = await seedCommand('--demo');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr.trim()).toBe(
      `the demo partner already exists (partnerId ${out.partnerId}); the seed runs once per database. A new key for it: npm run admin -- create-key --partner ${out.partnerId}`,
    );

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // No server: the command opens the database itself (under the lock, released after) and refuses the same way.
    const direct = await seedCommand('--demo');
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain(`the demo partner already exists (partnerId ${out.partnerId})`);
    expect(liveLockHolder(DATA_DIR)).toBeUndefined();
  }, 120_000);
});
