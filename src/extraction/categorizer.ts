// The cost-category classifier: the lexicon first (precise where it has the word), then similarity by meaning
// to a description of each category (the embedder), then the vendor's name, then other_expense.

import type { Embedder } from '../platform/embeddings/embedder.ts';
import { cosine } from '../platform/embeddings/embedder.ts';
import { type CostCategory, lexiconCategory, vendorCategory } from './categories.ts';

/** Each category described in the words a purchase line of it tends to use. */
const DESCRIPTIONS: Record<Exclude<CostCategory, 'other_expense'>, string> = {
  food_cost: 'food ingredients groceries fresh produce vegetables fruit meat poultry seafood fish dairy cheese eggs grains bakery spices condiments',
  nonalcoholic_beverage_cost: 'soft drinks soda juice coffee tea espresso mineral water sparkling water lemonade milk beverages',
  beer_cost: 'beer lager ale stout draught keg brewery bottles cans',
  wine_cost: 'wine red wine white wine sparkling wine champagne winery vineyard bottle',
  liquor_cost: 'liquor spirits vodka whiskey rum gin tequila bourbon distillery',
  retail_merchandise_cost: 'retail merchandise for resale branded apparel souvenirs gifts',
  paper_packaging: 'disposable packaging paper napkins takeout containers cups lids straws bags foil wrap',
  supply_cost: 'cleaning supplies chemicals detergent sanitizer soap gloves janitorial office supplies',
  smallwares: 'kitchen utensils knives pans pots bowls plates glasses cutlery trays',
  linen_uniform: 'linens uniforms aprons towels tablecloths chef coats laundry service',
  equipment: 'kitchen equipment appliances oven refrigerator freezer fryer mixer blender machine furniture',
  repairs_maintenance: 'repair maintenance service call technician fix plumbing electrical hvac cleaning service',
  freight_delivery: 'freight shipping delivery charge transport courier postage',
  utilities: 'utilities electricity power natural gas water sewer trash removal energy bill',
  rent_occupancy: 'rent lease occupancy property landlord premises common area charges',
  marketing_advertising: 'marketing advertising ads campaign promotion printing flyers menus signage social media',
  technology_services: 'software subscription technology internet website hosting point of sale online platform computer',
  taxes_licenses_fees: 'taxes licenses permits government fees registration bank charges processing fees',
};

/** Below this cosine a description is not about any category. 0.2–0.4 all score 44–48/65 on eval/category-items.json; 0.3 is the middle. */
export const MIN_SIMILARITY = 0.3;

/** How much closer to the best category than to the runner-up; a vague text ("Item 4411") is near several. */
export const MIN_MARGIN = 0.05;

export type CategorizeLines = (items: ReadonlyArray<{ description: string | null }>, context: { vendorName?: string | null }) => Promise<CostCategory[]>;

export function createCategorizer(embedder: Embedder | null): CategorizeLines {
  let categoryVectors: Promise<Array<[CostCategory, Float32Array]>> | undefined;
  const vectors = () =>
    (categoryVectors ??= embedder!
      .embed(Object.values(DESCRIPTIONS))
      .then((vs) => Object.keys(DESCRIPTIONS).map((c, i) => [c as CostCategory, vs[i]!] as [CostCategory, Float32Array])));

  return async (items, context) => {
    const out: Array<CostCategory | null> = items.map((i) => lexiconCategory(i.description ?? ''));
    const open = out.flatMap((c, i) => (c === null && items[i]!.description?.trim() ? [i] : []));
    if (embedder && open.length) {
      const [cats, texts] = await Promise.all([vectors(), embedder.embed(open.map((i) => items[i]!.description!))]);
      open.forEach((itemIndex, k) => {
        const ranked = cats.map(([cat, v]) => [cat, cosine(texts[k]!, v)] as const).sort((a, b) => b[1] - a[1]);
        const [first, second] = ranked;
        // Close enough to one category, and clearly closer to it than to the next.
        if (first![1] >= MIN_SIMILARITY && first![1] - second![1] >= MIN_MARGIN) out[itemIndex] = first![0];
      });
    }
    const byVendor = vendorCategory(context.vendorName);
    return out.map((c) => c ?? byVendor ?? 'other_expense');
  };
}
