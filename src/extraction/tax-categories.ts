// Receipt → IRS Schedule C expense line (DESIGN §9), from the merchant name and what was bought.
import type { ExtractedLineItem, ExtractedReceiptFields } from './types.ts';
import { stripAccents } from './fields/dates.ts';

export const TAX_CATEGORIES = [
  'Advertising',
  'Car and Truck',
  'Commissions and Fees',
  'Contract Labor',
  'Insurance',
  'Legal and Professional',
  'Office Expense',
  'Rent or Lease',
  'Repairs and Maintenance',
  'Supplies',
  'Taxes and Licenses',
  'Travel',
  'Meals',
  'Utilities',
  'Other',
] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

const RULES: [TaxCategory, RegExp][] = [
  [
    'Car and Truck',
    /\b(petrol|petronas|shell|caltex|esso|chevron|exxon|texaco|fuel|diesel|gasoline|unleaded|ron ?9[57]|degviela|benzins|tankstelle|carburant|station service|parking|car wash|toll|tol|auto ?parts|tyre|tire|neste|virsi|viada)\b/i,
  ],
  [
    'Travel',
    /\b(hotel|motel|inn|resort|hostel|airbnb|airline|airways|air asia|airasia|flight|lufthansa|ryanair|airbaltic|train|rail|vilciens|pasazieru|bus|taxi|uber|grab|bolt|lyft|booking\.com|expedia|boarding)\b/i,
  ],
  [
    'Meals',
    /\b(restaurant|restoran|cafe|coffee|kafejnica|bistro|bar|pub|grill|kitchen|diner|pizza|burger|bakery|maiznica|kfc|mcdonald|starbucks|food ?court|kopitiam|kedai makan|confectionery|catering|canteen|eatery|meal|lunch|dinner|breakfast|nasi|mee)\b/i,
  ],
  [
    'Office Expense',
    /\b(office|stationery|bookcentre|bookstores?|bookshop|books?|paper|printing|print|toner|ink|post office|postage|courier|popular|officeworks|staples)\b/i,
  ],
  [
    'Supplies',
    /\b(hardware|diy|d\.i\.y|supplies|supply|tools?|trading|enterprise|cash ?& ?carry|wholesale|depo|k-rauta|ikea|pharmacy|guardian|watsons|supermarket|hypermarket|mart|maxima|rimi|lidl|aldi|store|shop|veikals)\b/i,
  ],
  ['Repairs and Maintenance', /\b(repair|service centre|service center|workshop|bengkel|maintenance|plumb|electrician|locksmith)\b/i],
  ['Utilities', /\b(electric|tenaga|tnb|water|syabas|telekom|unifi|maxis|celcom|digi|telco|internet|latvenergo|gas)\b/i],
  ['Advertising', /\b(advertising|marketing|signage|printing ?& ?advert|media|billboard)\b/i],
  ['Rent or Lease', /\b(rental|rent|lease|sewa|noma)\b/i],
  ['Legal and Professional', /\b(lawyer|legal|notary|accountant|accounting|consulting|audit|advocates|solicitors)\b/i],
  ['Insurance', /\b(insurance|assurance|takaful|apdrosinasana)\b/i],
  ['Taxes and Licenses', /\b(licen[cs]e|permit|registration fee|stamp duty|lhdn|customs)\b/i],
  ['Commissions and Fees', /\b(commission|bank fee|service fee|transaction fee)\b/i],
];

export function taxCategoryForReceipt(fields: Pick<ExtractedReceiptFields, 'merchantName'>, lineItems: ExtractedLineItem[] = []): TaxCategory {
  const merchant = stripAccents(fields.merchantName ?? '');
  for (const [cat, re] of RULES) if (re.test(merchant)) return cat;
  const items = stripAccents(lineItems.map((l) => l.description ?? '').join(' '));
  for (const [cat, re] of RULES) if (re.test(items)) return cat;
  return 'Other';
}
