import { expect, inject, test } from 'vitest';
import { createLocalEmbedder } from '../../src/platform/embeddings/index.ts';
import { createCategorizer } from '../../src/extraction/categorizer.ts';

test('the lexicon decides where it knows the word; embeddings place what it does not; then the vendor; then other', async () => {
  const embedder = await createLocalEmbedder(inject('wordVectorCacheDir'));
  const items = ['Boneless chicken breast', 'Baby arugula 4 lb', 'Website hosting annual', 'Item 4411', ''].map((description) => ({ description }));
  const lexiconOnly = await createCategorizer(null)(items, { vendorName: 'Sunrise Brewery Inc' });
  expect(lexiconOnly).toEqual(['food_cost', 'beer_cost', 'technology_services', 'beer_cost', 'beer_cost']);
  const withMeaning = await createCategorizer(embedder)(items, { vendorName: 'Sunrise Brewery Inc' });
  expect(withMeaning).toEqual(['food_cost', 'food_cost', 'technology_services', 'beer_cost', 'beer_cost']);
  expect(await createCategorizer(embedder)([{ description: 'Item 4411' }], {})).toEqual(['other_expense']);
});
