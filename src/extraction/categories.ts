// Line item → one of the 19 cost categories (DESIGN §9): multilingual lexicon (EN/FR/DE + basics) and rules.
import { stripAccents } from './fields/dates.ts';

export const COST_CATEGORIES = [
  'food_cost', 'nonalcoholic_beverage_cost', 'beer_cost', 'wine_cost', 'liquor_cost', 'retail_merchandise_cost',
  'paper_packaging', 'supply_cost', 'smallwares', 'linen_uniform', 'equipment', 'repairs_maintenance',
  'freight_delivery', 'utilities', 'rent_occupancy', 'marketing_advertising', 'technology_services',
  'taxes_licenses_fees', 'other_expense',
] as const;
export type CostCategory = (typeof COST_CATEGORIES)[number];

// Ordered: the first rule whose words appear wins (specific before generic: "beer glass" is smallwares, "wine" is wine).
const RULES: [CostCategory, string[]][] = [
  ['freight_delivery', ['freight', 'shipping', 'delivery charge', 'delivery fee', 'delivery', 'porto', 'fracht', 'versand', 'lieferkosten', 'livraison', 'transport', 'frais de port', 'courier', 'affranchissement', 'postage', 'fuel surcharge']],
  ['taxes_licenses_fees', ['license', 'licence', 'permit', 'lizenz', 'gebuhr', 'fee', 'frais de dossier', 'tax', 'steuer', 'taxe', 'registration', 'inspection', 'bank charge', 'penalty', 'late fee']],
  ['technology_services', ['software', 'subscription', 'saas', 'cloud', 'hosting', 'domain', 'internet', 'wifi', 'pos system', 'it support', 'support', 'prestation', 'licence logiciel', 'app', 'computer', 'laptop', 'printer ink', 'web', 'telecom', 'telecommunication', 'telephone', 'phone', 'mobile', 'appel', 'abonnement', 'data']],
  ['utilities', ['electricity', 'electric', 'gas bill', 'natural gas', 'water bill', 'water service', 'sewer', 'strom', 'wasser', 'heizung', 'electricite', 'eau', 'energy', 'energie', 'trash', 'waste', 'garbage', 'müll', 'mull']],
  ['rent_occupancy', ['rent', 'lease', 'leasing', 'miete', 'loyer', 'pacht', 'occupancy', 'cam charges', 'property', 'finanzrate']],
  ['marketing_advertising', ['advertising', 'advert', 'marketing', 'flyer', 'banner', 'promotion', 'werbung', 'publicite', 'social media', 'seo', 'sponsor', 'brochure', 'poster']],
  ['repairs_maintenance', ['repair', 'maintenance', 'service call', 'reparatur', 'wartung', 'instandhaltung', 'reparation', 'entretien', 'plumbing', 'plumber', 'hvac', 'pest control', 'labor', 'labour', 'technician', 'calibration']],
  ['linen_uniform', ['linen', 'uniform', 'apron', 'napkin cloth', 'tablecloth', 'towel', 'chef coat', 'wasche', 'tablier', 'nappe', 'torchon', 'schurze', 'laundry']],
  ['paper_packaging', ['napkin', 'paper towel', 'to go', 'takeout', 'container', 'clamshell', 'foil', 'cling film', 'plastic wrap', 'cup lid', 'lids', 'straw', 'bag', 'box', 'packaging', 'verpackung', 'emballage', 'serviette', 'papier', 'paper', 'fournitures papier', 'carton', 'deli', 'wrap film', 'toilet paper', 'tissue']],
  ['supply_cost', ['detergent', 'sanitizer', 'bleach', 'soap', 'degreaser', 'cleaner', 'cleaning', 'glove', 'gloves', 'trash bag', 'mop', 'sponge', 'reinigung', 'spulmittel', 'nettoyant', 'lessive', 'chemical', 'office supplies', 'fournitures', 'supplies', 'bureaubedarf', 'toner', 'pen', 'battery']],
  ['smallwares', ['knife', 'knives', 'pan', 'pot', 'utensil', 'tongs', 'ladle', 'whisk', 'cutting board', 'glassware', 'glass', 'plate', 'bowl', 'cutlery', 'fork', 'spoon', 'tray', 'sheet pan', 'messer', 'pfanne', 'topf', 'couteau', 'poele', 'casserole', 'verre', 'assiette', 'thermometer', 'hotel pan']],
  ['equipment', ['oven', 'fryer', 'refrigerator', 'fridge', 'freezer', 'dishwasher', 'mixer', 'grill', 'range', 'ice machine', 'espresso machine', 'coffee machine', 'slicer', 'equipment', 'machine', 'furniture', 'chair', 'table', 'stuhl', 'schreibtisch', 'ofen', 'kuhlschrank', 'four', 'refrigerateur', 'appliance']],
  ['liquor_cost', ['vodka', 'whisky', 'whiskey', 'bourbon', 'rum', 'gin', 'tequila', 'brandy', 'cognac', 'liqueur', 'schnapps', 'spirits', 'mezcal', 'scotch', 'likor', 'spiritueux', 'degvins', 'balzams']],
  ['wine_cost', ['wine', 'wein', 'vin', 'vins', 'prosecco', 'champagne', 'sekt', 'cabernet', 'merlot', 'chardonnay', 'pinot', 'riesling', 'sauvignon', 'rose', 'bordeaux', 'rioja', 'vins rouge', 'vino']],
  ['beer_cost', ['beer', 'bier', 'biere', 'lager', 'ale', 'ipa', 'stout', 'pilsner', 'pils', 'keg', 'alus', 'cider']],
  ['nonalcoholic_beverage_cost', ['coffee', 'tea', 'juice', 'soda', 'cola', 'water', 'mineral water', 'sparkling water', 'lemonade', 'milk', 'syrup', 'kaffee', 'tee', 'saft', 'wasser', 'cafe', 'the', 'jus', 'eau minerale', 'limonade', 'energy drink', 'kafija', 'tēja', 'ūdens', 'sula', 'drink', 'beverage']],
  ['food_cost', ['chicken', 'beef', 'pork', 'lamb', 'fish', 'salmon', 'shrimp', 'meat', 'produce', 'vegetable', 'vegetables', 'fruit', 'lettuce', 'tomato', 'onion', 'potato', 'potatoes', 'cheese', 'butter', 'cream', 'egg', 'eggs', 'flour', 'sugar', 'salt', 'oil', 'rice', 'pasta', 'bread', 'bun', 'buns', 'sauce', 'spice', 'herbs', 'fleisch', 'huhn', 'kase', 'gemuse', 'obst', 'brot', 'mehl', 'zucker', 'poulet', 'boeuf', 'porc', 'poisson', 'legumes', 'fromage', 'beurre', 'farine', 'sucre', 'pain', 'oeufs', 'maize', 'siers', 'gala', 'piens', 'food', 'burger', 'pizza', 'sandwich', 'meal', 'nasi', 'mee', 'ayam', 'bakery', 'dessert', 'cake', 'chocolate', 'snack']],
  ['retail_merchandise_cost', ['merchandise', 'retail', 't-shirt', 'souvenir', 'gift', 'resale', 'handelsware', 'marchandise']],
];

const COMPILED = RULES.map(([cat, words]) => [cat, new RegExp(`\\b(${words.map((w) => stripAccents(w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})s?\\b`, 'i')] as const);

const VENDOR_HINTS: [RegExp, CostCategory][] = [
  [/brewery|brauerei|brasserie|beer/i, 'beer_cost'],
  [/winery|wine|weingut|vins|cave/i, 'wine_cost'],
  [/distill|spirits/i, 'liquor_cost'],
  [/produce|meat|seafood|foods?\b|bakery|boulangerie|metzgerei|sysco|us foods|farm/i, 'food_cost'],
  [/linen|uniform|laundry|cintas/i, 'linen_uniform'],
  [/electric|energy|power|water|gas\b|stadtwerke|edf|engie/i, 'utilities'],
  [/telecom|software|tech|cloud|digital|informatique/i, 'technology_services'],
  [/propert|realty|immobilien|landlord/i, 'rent_occupancy'],
  [/leasing|fuhrpark/i, 'rent_occupancy'],
];

/** The lexicon's category for a description, or null when no rule's words appear in it. */
export function lexiconCategory(description: string): CostCategory | null {
  const text = stripAccents(description).toLowerCase();
  if (text.trim()) for (const [cat, re] of COMPILED) if (re.test(text)) return cat;
  return null;
}

/** What the vendor's name says about everything it sells (a brewery sells beer), or null. */
export function vendorCategory(vendorName: string | null | undefined): CostCategory | null {
  for (const [re, cat] of VENDOR_HINTS) if (re.test(vendorName ?? '')) return cat;
  return null;
}

/** Lexicon, then the vendor's name, then other_expense (the categoriser adds embeddings in between). */
export function categorizeLineItem(description: string, context: { vendorName?: string | null } = {}): CostCategory {
  return lexiconCategory(description) ?? vendorCategory(context.vendorName) ?? 'other_expense';
}
