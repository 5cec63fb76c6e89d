import { newDocument } from '../fixtures/new-document.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Database } from '../../src/platform/db/connect.ts';
import { listEvents } from '../../src/platform/events/outbox.queries.ts';
import { createCategorizer } from '../../src/extraction/categorizer.ts';
import type { DeliveredInvoice } from '../../src/extraction/types.ts';
import { newLease } from '../../src/modules/documents/extraction-lease.ts';
import { createInvoicesService } from '../../src/modules/invoices/invoices.service.ts';
import { createTenantsService } from '../../src/modules/tenants/tenants.service.ts';
import { createPartnersService } from '../../src/modules/partners/partners.service.ts';
import { normalizeVendorName } from '../../src/modules/vendors/vendor-name.ts';
import { freshDatabase } from '../helpers/db.ts';

let database: Database;
let tenantId: string;
let invoices: ReturnType<typeof createInvoicesService>;

/** A document of its own bytes (the same sha256 would make the next record a duplicate of the last). */
const newDoc = () => newDocument({ sizeBytes: 1234, originalName: 'inv.pdf', pageCount: 2 });

function fields(over: Partial<DeliveredInvoice>): DeliveredInvoice {
  return {
    vendorName: 'Sysco Foods Inc.',
    invoiceNumber: 'INV-1',
    invoiceDate: '2026-03-05',
    dueDate: '2026-04-04',
    subtotal: 100,
    tax: 8.25,
    total: 108.25,
    currency: 'USD',
    lineItems: [
      { description: 'Romaine lettuce case', sku: 'RL-24', quantity: 2, unit: 'case', unitPrice: 30, total: 60 },
      { description: 'Paper napkins 500ct', sku: null, quantity: 4, unit: 'pack', unitPrice: 10, total: 40 },
    ],
    confidence: 93.456,
    fieldConfidences: { vendorName: 90, invoiceNumber: 95, invoiceDate: 95, total: 99 },
    pages: [1],
    source: 'text',
    ...over,
  };
}

beforeAll(async () => {
  database = await freshDatabase();
  ({ tenantId } = await createPartnersService(database.db).createPartner({ name: 'Rec', tier: 'storage' }));
  invoices = createInvoicesService(database.db, { categorize: createCategorizer(null), tenants: createTenantsService(database.db), lease: newLease() });
});
afterAll(() => database?.close());

test('an upload goes processing → processed with its lines, categories, vendor totals and events in order', async () => {
  const started = await invoices.start(tenantId, newDoc(), null);
  expect(started.status).toBe('processing');
  const [done] = await invoices.complete(started, [fields({})]);
  expect(done).toMatchObject({
    id: started.id,
    status: 'processed',
    vendorName: 'Sysco Foods Inc.',
    invoiceDate: '2026-03-05',
    total: 108.25,
    extractionConfidence: 93.46,
    pages: [1],
  });
  expect(done!.lineItems.map((l) => [l.description, l.quantity, l.total])).toEqual([
    ['Romaine lettuce case', 2, 60],
    ['Paper napkins 500ct', 4, 40],
  ]);
  expect(done!.lineItems.map((l) => l.costCategory)).toEqual(['food_cost', 'paper_packaging']);

  const events = await listEvents(database.db, tenantId);
  expect(events.map((e) => e.type)).toEqual(['invoice.created', 'vendor.created', 'invoice.processed']);
  expect(events[2]!.payload).toMatchObject({ id: started.id, status: 'processed', costCategories: ['food_cost', 'paper_packaging'] });

  const vendor = await database.db.selectFrom('vendors').selectAll().where('tenantId', '=', tenantId).executeTakeFirstOrThrow();
  expect(vendor).toMatchObject({ name: 'Sysco Foods Inc.', normalizedName: 'sysco foods', invoiceCount: 1, totalSpent: '108.25' });
});

test('the same vendor spelled differently adds to its totals without a second vendor.created', async () => {
  const before = (await listEvents(database.db, tenantId)).length;
  const started = await invoices.start(tenantId, newDoc(), null);
  await invoices.complete(started, [fields({ vendorName: 'SYSCO FOODS, INC', invoiceNumber: 'INV-2', total: 10 })]);
  const types = (await listEvents(database.db, tenantId)).slice(before).map((e) => e.type);
  expect(types).toEqual(['invoice.created', 'invoice.processed']);
  const vendors = await database.db.selectFrom('vendors').selectAll().where('tenantId', '=', tenantId).execute();
  expect(vendors).toHaveLength(1);
  expect(vendors[0]).toMatchObject({ invoiceCount: 2, totalSpent: '118.25' });
});

test('a two-vendor document becomes two invoice records of the same document', async () => {
  const started = await invoices.start(tenantId, newDoc(), null);
  const out = await invoices.complete(started, [
    fields({ vendorName: 'Acme Paper GmbH', pages: [1] }),
    fields({ vendorName: 'Blue Bottle Coffee', invoiceNumber: 'B-7', pages: [2] }),
  ]);
  expect(out).toHaveLength(2);
  expect(out[0]!.id).toBe(started.id);
  expect(out[1]!.documentId).toBe(started.documentId);
  expect(out.map((i) => [i.vendorName, i.pages])).toEqual([
    ['Acme Paper GmbH', [1]],
    ['Blue Bottle Coffee', [2]],
  ]);
});

test('a failure keeps the reason and emits invoice.failed', async () => {
  const before = (await listEvents(database.db, tenantId)).length;
  const started = await invoices.start(tenantId, newDoc(), null);
  const failed = await invoices.fail(started, 'the PDF is encrypted');
  expect(failed).toMatchObject({ status: 'failed', error: 'the PDF is encrypted' });
  const events = (await listEvents(database.db, tenantId)).slice(before);
  expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.failed']);
  expect(events[1]!.payload).toMatchObject({ status: 'failed', error: 'the PDF is encrypted' });
});

test('lookups are confined to the given tenants', async () => {
  const started = await invoices.start(tenantId, newDoc(), null);
  const { tenantId: other } = await createPartnersService(database.db).createPartner({ name: 'Other', tier: 'storage' });
  expect(await invoices.byIds([other], [started.id])).toEqual([null]);
  expect((await invoices.byIds([tenantId], [started.id]))[0]?.id).toBe(started.id);
});

test('vendor names normalise across case, punctuation, accents and legal forms', () => {
  expect(normalizeVendorName('SIA "Kanclers"')).toBe('kanclers');
  expect(normalizeVendorName('Kanclers SIA')).toBe('kanclers');
  expect(normalizeVendorName('Café Müller GmbH & Co. KG')).toBe('cafe muller');
  expect(normalizeVendorName('Inc.')).toBe('inc');
});
