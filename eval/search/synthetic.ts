// Synthetic invoice-like search documents for eval/search/main.ts `--synthetic N`: distractors that make the index
// the size of a real tenant. Each is what searchDocumentOfInvoice makes of a plausible invoice: a vendor from a pool
// of generated names (vendors repeat, as in real books), 1–8 line items from one trade's vocabulary (restaurant,
// office or hardware; sometimes one item from another trade), categorised by the production categoriser, with
// random totals, dates and numbers. Deterministic for a given seed. Nothing here knows the evaluation dataset.

import { randomUUID } from 'node:crypto';
import type { SearchDocument } from '../../src/modules/search/search-index.queries.ts';
import { categorizeLineItem } from '../../src/extraction/categories.ts';
import type { Invoice, LineItem } from '../../src/modules/invoices/invoice.ts';
import { searchDocumentOfInvoice } from '../../src/modules/search/search-documents.ts';

const TRADES = {
  restaurant: {
    vendorWords: [
      'Foods',
      'Provisions',
      'Produce Co',
      'Catering Supply',
      'Bakery Wholesale',
      'Beverage Distributors',
      'Seafood',
      'Meats',
      'Restaurant Supply',
      'Fine Foods',
    ],
    items: [
      'chicken breast 5kg',
      'ground beef',
      'salmon fillet',
      'romaine lettuce',
      'roma tomatoes',
      'yellow onions',
      'russet potatoes',
      'cheddar cheese',
      'unsalted butter',
      'heavy cream',
      'large eggs 30ct',
      'all-purpose flour 25kg',
      'granulated sugar',
      'extra virgin olive oil',
      'basmati rice',
      'penne pasta',
      'burger buns',
      'tomato sauce',
      'espresso coffee beans 1kg',
      'green tea bags',
      'orange juice',
      'sparkling water',
      'cola syrup',
      'house red wine',
      'lager keg 50l',
      'vodka 1l',
      'cocktail napkins',
      'takeout containers',
      'aluminium foil roll',
      'cling film',
      'paper cups with lids',
      'dish detergent',
      'surface sanitizer',
      'nitrile gloves',
      "chef's knife",
      'sheet pan',
      'cutting board',
      'kitchen aprons',
      'tablecloth laundry service',
      'fryer oil 20l',
      'butter croissants',
      'chocolate cake',
      'pizza dough balls',
      'mozzarella',
      'fresh herbs',
      'frozen fries',
    ],
  },
  office: {
    vendorWords: ['Office Supply', 'Business Products', 'Stationers', 'Print & Copy', 'Workspace Furniture', 'Office Solutions', 'IT Services', 'Paper Co'],
    items: [
      'copy paper A4 500 sheets',
      'ballpoint pens blue',
      'gel pens',
      'highlighters',
      'sticky notes',
      'spiral notebooks',
      'file folders',
      'ring binders',
      'stapler',
      'staples 5000',
      'paper clips',
      'envelopes C5',
      'printer toner cartridge',
      'ink cartridge black',
      'desk organizer',
      'whiteboard markers',
      'whiteboard 120x90',
      'ergonomic office chair',
      'height adjustable desk',
      'filing cabinet',
      'bookshelf',
      'monitor arm',
      'laptop 14 inch',
      'wireless mouse',
      'keyboard',
      'USB flash drive 64GB',
      'HDMI cable',
      'software subscription',
      'cloud hosting',
      'internet service',
      'phone line',
      'label maker',
      'paper shredder',
      'desk calculator',
      'scissors',
      'tape dispenser',
      'batteries AA',
      'coffee machine rental',
      'cleaning service',
    ],
  },
  hardware: {
    vendorWords: [
      'Hardware',
      'Tool Supply',
      'Building Materials',
      'Industrial Supply',
      'Fasteners',
      'Home Improvement',
      'Electrical Wholesale',
      'Plumbing Supply',
    ],
    items: [
      'cordless drill 18V',
      'drill bit set',
      'impact driver',
      'circular saw',
      'claw hammer',
      'screwdriver set',
      'wood screws',
      'drywall screws',
      'wall anchors',
      'bolts and nuts',
      'wrench set',
      'pliers',
      'tape measure 5m',
      'spirit level',
      'utility knife',
      'sandpaper assorted',
      'paint roller',
      'interior paint 5L',
      'paint brushes',
      'wood glue',
      'silicone sealant',
      'PVC pipe 2m',
      'copper fittings',
      'electrical wire 2.5mm',
      'light switches',
      'LED bulbs',
      'extension cord',
      'padlock',
      'door hinges',
      'step ladder',
      'wheelbarrow',
      'garden hose',
      'safety goggles',
      'work gloves',
      'lumber 2x4',
      'plywood sheet',
      'concrete mix 25kg',
      'cable ties',
      'duct tape',
      'toolbox',
    ],
  },
} as const;
type Trade = keyof typeof TRADES;
const TRADE_NAMES = Object.keys(TRADES) as Trade[];

const NAME_HEADS = [
  'Harbor',
  'Summit',
  'Blue Ridge',
  'Golden Gate',
  'Maple',
  'Northwind',
  'Riverside',
  'Pioneer',
  'Evergreen',
  'Crescent',
  'Oakwood',
  'Silverline',
  'Lakeside',
  'Redwood',
  'Granite',
  'Westfield',
  'Eastgate',
  'Sunrise',
  'Highland',
  'Cedar',
  'Atlas',
  'Beacon',
  'Keystone',
  'Meridian',
  'Orchard',
  'Prairie',
  'Sterling',
  'Union',
  'Valley',
  'Willow',
  'Bergmann',
  'Dubois',
  'Fischer',
  'Lambert',
  'Moreau',
  'Novak',
  'Petersen',
  'Rossi',
  'Schmidt',
  'Weber',
];
const NAME_TAILS = ['Inc', 'LLC', 'Ltd', 'GmbH', 'SARL', '& Sons', 'Co', 'Group', ''];
const CURRENCIES = ['USD', 'EUR', 'GBP'];

/** mulberry32: a small seeded PRNG, so runs are comparable. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticInvoiceDocuments(count: number, tenantId: string, seed = 20261123): SearchDocument[] {
  const random = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const vendors = Array.from({ length: 300 }, () => {
    const trade = pick(TRADE_NAMES);
    return { trade, name: [pick(NAME_HEADS), pick(TRADES[trade].vendorWords), pick(NAME_TAILS)].filter(Boolean).join(' ') };
  });
  const docs: SearchDocument[] = [];
  for (let n = 0; n < count; n++) {
    const vendor = pick(vendors);
    const lineItems: LineItem[] = Array.from({ length: int(1, 8) }, () => {
      const trade = random() < 0.1 ? pick(TRADE_NAMES) : vendor.trade;
      const description = pick(TRADES[trade].items);
      const quantity = int(1, 20);
      const unitPrice = Math.round((1 + random() * 199) * 100) / 100;
      return {
        description,
        sku: null,
        quantity,
        unit: null,
        unitPrice,
        total: Math.round(quantity * unitPrice * 100) / 100,
        costCategory: categorizeLineItem(description, { vendorName: vendor.name }),
      };
    });
    const subtotal = Math.round(lineItems.reduce((s, l) => s + (l.total ?? 0), 0) * 100) / 100;
    const tax = Math.round(subtotal * pick([0, 0.07, 0.1, 0.19, 0.2]) * 100) / 100;
    const date = `${int(2022, 2025)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`;
    const invoice: Invoice = {
      id: randomUUID(),
      tenantId,
      documentId: randomUUID(),
      storeId: null,
      vendorId: null,
      vendorName: vendor.name,
      invoiceNumber: `INV-${int(1000, 999999)}`,
      invoiceDate: date,
      dueDate: null,
      subtotal,
      tax,
      total: Math.round((subtotal + tax) * 100) / 100,
      currency: pick(CURRENCIES),
      extractionConfidence: 90,
      source: 'text',
      fieldConfidences: {},
      status: 'processed',
      error: null,
      pages: [1],
      duplicateOf: null,
      forced: false,
      createdAt: new Date(),
    };
    docs.push(searchDocumentOfInvoice(invoice, lineItems));
  }
  return docs;
}
