import PDFDocument from 'pdfkit';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { UploadedFile } from '../../platform/lib/uploaded-file.ts';
import { addDays, dayOfWeek } from '../../platform/lib/timezone.ts';
import { prng, STORES } from './demo-data.ts';
import type { DemoServices } from './demo-seed.ts';

// The demo's vendor invoices: a month of deliveries to each store (produce, meat and seafood, a broadline
// distributor, beer and wine, spirits, linen, and the month's utility bill), written as PDFs and uploaded like a
// partner's, so each is read by the extraction engine, categorised, kept with its original and shown live.

interface Line {
  description: string;
  sku: string;
  unit: string;
  unitPrice: number;
  /** Quantity in an average week at a store of volume 1. */
  quantity: number;
}

interface VendorSpec {
  name: string;
  prefix: string;
  address: string;
  /** Day of the week it delivers (0 = Sunday); every `everyWeeks` weeks; 'monthly': once, on the month's 3rd day. */
  weekday: number;
  everyWeeks: 1 | 2 | 'monthly';
  termsDays: number;
  lines: Line[];
}

const l = (description: string, sku: string, unit: string, unitPrice: number, quantity: number): Line => ({ description, sku, unit, unitPrice, quantity });

export const DEMO_VENDORS: VendorSpec[] = [
  {
    ...{ name: 'Hudson Valley Produce Co.', prefix: 'HVP', address: '410 River Road, Kingston, NY 12401', weekday: 1, everyWeeks: 1, termsDays: 14 },
    lines: [
      l('Romaine hearts, 24 ct case', 'HV-101', 'case', 38.5, 6),
      l('Roma tomatoes, 25 lb case', 'HV-102', 'case', 31.75, 6),
      l('Yellow onions, 50 lb', 'HV-118', 'each', 24, 4),
      l('Russet potatoes, 50 lb', 'HV-120', 'each', 27.5, 6),
      l('Lemons, 115 ct case', 'HV-131', 'case', 42, 3),
      l('Fresh herbs, assorted bunches', 'HV-150', 'case', 18, 8),
    ],
  },
  {
    ...{ name: 'Great Lakes Meat & Seafood Inc.', prefix: 'GLM', address: '2200 W Fulton Market, Chicago, IL 60612', weekday: 2, everyWeeks: 1, termsDays: 14 },
    lines: [
      l('Chicken breast, boneless skinless, 40 lb case', 'GL-210', 'case', 139.6, 6),
      l('Ground beef 80/20, 20 lb case', 'GL-220', 'case', 85.8, 8),
      l('Atlantic salmon fillet, 10 lb', 'GL-310', 'case', 115, 5),
      l('Pork shoulder, bone-in, 16 lb', 'GL-230', 'case', 52, 6),
      l('Bacon, thick sliced, 15 lb case', 'GL-240', 'case', 67.5, 4),
    ],
  },
  {
    ...{
      name: 'Midwest Foodservice Distributors LLC',
      prefix: 'MFD',
      address: '9000 Distribution Way, Joliet, IL 60431',
      weekday: 4,
      everyWeeks: 1,
      termsDays: 30,
    },
    lines: [
      l('All-purpose flour, 50 lb', 'MF-1012', 'each', 24, 3),
      l('Canola frying oil, 35 lb jug', 'MF-1013', 'each', 41, 6),
      l('Heavy cream, 12 qt case', 'MF-1014', 'case', 38.4, 4),
      l('Cheddar cheese, shredded, 4 x 5 lb', 'MF-1009', 'case', 79.8, 4),
      l('Large eggs, 15 dozen case', 'MF-1011', 'case', 54, 4),
      l('Brioche burger buns, 96 ct', 'MF-1004', 'case', 40.32, 6),
      l('Unsalted butter, 36 lb case', 'MF-1010', 'case', 147.6, 2),
      l('Cola fountain syrup, 5 gal', 'MF-3002', 'each', 70, 2),
      l('House coffee beans, whole, 5 lb', 'MF-3001', 'each', 42.5, 2),
      l('Dinner napkins, 2-ply, 3000 ct', 'MF-7002', 'case', 60, 1),
      l('To-go clamshells 9 x 9, 200 ct', 'MF-7001', 'case', 38, 2),
      l('Nitrile gloves, large, 1000 ct', 'MF-8001', 'case', 60, 1),
      l('Quat sanitizer concentrate, 4 gal', 'MF-8002', 'case', 72, 1),
    ],
  },
  {
    ...{ name: 'Keystone Beer & Wine Distributors', prefix: 'KBW', address: '75 Brewery Lane, Milwaukee, WI 53212', weekday: 3, everyWeeks: 1, termsDays: 30 },
    lines: [
      l('Local IPA, draft keg 15.5 gal', 'KB-4001', 'keg', 189, 2),
      l('Mexican lager beer, 24 x 12 oz bottles', 'KB-4002', 'case', 27.6, 3),
      l('House Cabernet Sauvignon wine, 12 x 750 ml', 'KB-5001', 'case', 114, 1),
      l('House Chardonnay wine, 12 x 750 ml', 'KB-5002', 'case', 105, 1),
      l('Prosecco sparkling wine, 12 x 750 ml', 'KB-5003', 'case', 123, 1),
    ],
  },
  {
    ...{ name: 'Empire Spirits Wholesale', prefix: 'ESW', address: '1 Distillery Plaza, Louisville, KY 40202', weekday: 5, everyWeeks: 2, termsDays: 30 },
    lines: [
      l('Well vodka, 12 x 1 l', 'ES-6001', 'case', 154.8, 1),
      l('Kentucky bourbon whiskey, 6 x 750 ml', 'ES-6002', 'case', 144, 1),
      l('Blanco tequila, 6 x 750 ml', 'ES-6003', 'case', 126, 1),
    ],
  },
  {
    ...{ name: 'Crown Linen Service', prefix: 'CLS', address: '18 Laundry Street, Newark, NJ 07105', weekday: 6, everyWeeks: 2, termsDays: 15 },
    lines: [l('Bar towels, linen rental', 'CL-1', 'each', 0.45, 150), l('Chef aprons, uniform rental', 'CL-2', 'each', 1.1, 20)],
  },
  {
    ...{ name: 'Metro Gas & Electric', prefix: 'MGE', address: 'PO Box 5000, Springfield, IL 62701', weekday: 0, everyWeeks: 'monthly', termsDays: 21 },
    lines: [l('Electric service, monthly billing period', 'kWh', 'each', 1240, 1), l('Natural gas service, monthly billing period', 'therm', 'each', 585, 1)],
  },
];

export interface DemoInvoice {
  vendor: VendorSpec;
  store: number;
  number: string;
  date: string;
  due: string;
  lines: Array<Omit<Line, 'quantity'> & { quantity: number }>;
}

/** Every delivery of the month to every store, in date order: deterministic for a given month. */
export function demoInvoices(startDate: string, endDate: string): DemoInvoice[] {
  const rng = prng(0x1a_2026);
  const out: DemoInvoice[] = [];
  let serial = 1000;
  const firstWeek = addDays(startDate, -dayOfWeek(startDate));
  for (let week = firstWeek, w = 0; week <= endDate; week = addDays(week, 7), w++) {
    for (const vendor of DEMO_VENDORS) {
      const date = vendor.everyWeeks === 'monthly' ? addDays(startDate, 2) : addDays(week, vendor.weekday);
      if (vendor.everyWeeks === 'monthly' ? w !== 0 : w % vendor.everyWeeks !== 0) continue;
      if (date < startDate || date > endDate) continue;
      for (const [s, store] of STORES.entries()) {
        const lines = vendor.lines.map((line) => ({
          ...line,
          quantity: Math.max(1, Math.round(line.quantity * store.volume * (vendor.everyWeeks === 'monthly' ? 1 : 1 + rng.around(0.15)))),
        }));
        out.push({ vendor, store: s, number: `${vendor.prefix}-${serial++}`, date, due: addDays(date, vendor.termsDays), lines });
      }
    }
  }
  return out.sort((a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number));
}

const TAX_RATE = 0.0;
const money = (n: number) => `$${n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
const printed = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

/** One invoice as a one-page text PDF (Letter, Helvetica), laid out the way distributors print them. */
export function renderDemoInvoice(inv: DemoInvoice): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 0,
    compress: true,
    info: { Title: `Invoice ${inv.number}`, CreationDate: new Date(`${inv.date}T12:00:00Z`) },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = (t: string, x: number, y: number, size = 10, font = 'Helvetica') => doc.font(font).fontSize(size).text(t, x, y, { lineBreak: false });
  const store = STORES[inv.store]!;
  text(inv.vendor.name, 50, 50, 18, 'Helvetica-Bold');
  text(inv.vendor.address, 50, 74);
  text('INVOICE', 440, 50, 18, 'Helvetica-Bold');
  text(`Invoice Number: ${inv.number}`, 400, 90);
  text(`Invoice Date: ${printed(inv.date)}`, 400, 105);
  text(`Due Date: ${printed(inv.due)}`, 400, 120);
  text('Bill To:', 50, 110);
  text(store.name, 50, 124);
  text(`Account ${store.externalStoreId}`, 50, 138);
  const columns: Array<[string, number]> = [
    ['Item', 50],
    ['Description', 110],
    ['Qty', 370],
    ['Unit', 405],
    ['Unit Price', 445],
    ['Amount', 515],
  ];
  for (const [name, x] of columns) text(name, x, 180, 10, 'Helvetica-Bold');
  doc.moveTo(50, 194).lineTo(570, 194).lineWidth(0.5).stroke();
  let y = 202;
  let subtotal = 0;
  for (const line of inv.lines) {
    const amount = Math.round(line.quantity * line.unitPrice * 100) / 100;
    subtotal += amount;
    text(line.sku, 50, y);
    text(line.description, 110, y);
    text(String(line.quantity), 370, y);
    text(line.unit, 405, y);
    text(money(line.unitPrice), 445, y);
    text(money(amount), 515, y);
    y += 18;
  }
  subtotal = Math.round(subtotal * 100) / 100;
  const tax = Math.round(subtotal * TAX_RATE * 100) / 100;
  y += 16;
  text('Subtotal', 445, y);
  text(money(subtotal), 515, y);
  text('Sales Tax (exempt, resale)', 355, y + 16);
  text(money(tax), 515, y + 16);
  text('Total Due', 445, y + 32, 10, 'Helvetica-Bold');
  text(money(subtotal + tax), 515, y + 32, 10, 'Helvetica-Bold');
  text(`Terms: Net ${inv.vendor.termsDays} days. Thank you for your business.`, 50, y + 70, 9);
  doc.end();
  return done;
}

/** Uploads the month's invoices as the demo partner's key would (read, categorised, kept, indexed). */
export async function seedInvoices(
  services: Pick<DemoServices, 'uploads'>,
  principal: Principal,
  stores: ReadonlyArray<{ id: string }>,
  range: { startDate: string; endDate: string },
): Promise<{ invoices: number; failed: number }> {
  let invoices = 0;
  let failed = 0;
  const queue = demoInvoices(range.startDate, range.endDate);
  // A few at a time: reading runs in the worker pool, so the uploads overlap as a partner's would.
  const worker = async () => {
    for (let inv = queue.shift(); inv; inv = queue.shift()) {
      const bytes = await renderDemoInvoice(inv);
      const file = new UploadedFile(`${inv.number}.pdf`, 'application/pdf', bytes);
      const recorded = await services.uploads.uploadInvoice(principal, { file, storeId: stores[inv.store]!.id, channel: 'graphql' });
      invoices += recorded.length;
      failed += recorded.filter((r) => r.status !== 'processed').length;
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return { invoices, failed };
}
