import { esc } from '../html.ts';
import { day, money } from './format.ts';
import { empty } from './layout.ts';
import { PageError } from './page-graphql.ts';
import { type PageContext, type PageHandler, param } from './page.ts';
import type { SearchResult } from '../../modules/search/search.service.ts';

const QUERY = `query SearchPage($q: String!, $type: SearchResultType) {
  search(query: $q, type: $type, limit: 20) { query totalResults results { type id similarity preview vendorName merchantName total date } }
}`;

// One invoice's store, read through the API's own access checks (an invoice the user may not see is "not found").
const INVOICE_STORE = `query SearchPageInvoiceStore($id: UUID!) { invoice(id: $id) { storeId } }`;

const TYPES = ['invoice', 'receipt', 'vendor'] as const satisfies readonly SearchResult['type'][];

type Result = SearchResult;

/** A search form; results by meaning over the tenant's invoices, receipts and vendors (GraphQL search). */
export const searchPage: PageHandler = async (ctx) => {
  const q = param(ctx.query, 'q');
  const typeParam = param(ctx.query, 'type');
  const type = TYPES.find((t) => t === typeParam) ?? null;
  const options = [['', 'Everything'], ...TYPES.map((t) => [t, `${t[0]!.toUpperCase()}${t.slice(1)}s`])]
    .map(([v, text]) => `<option value="${v}"${(type ?? '') === v ? ' selected' : ''}>${esc(text)}</option>`)
    .join('');
  const form = `<form class="search" method="get" action="/app/search" role="search">
<label for="q">Search your documents</label>
<div class="row"><input id="q" name="q" type="search" value="${esc(q ?? '')}" minlength="2" maxlength="500" placeholder="e.g. romaine lettuce, napkins, Green Valley" required>
<select name="type" aria-label="What to search">${options}</select><button type="submit">Search</button></div></form>`;
  if (!q) return { title: 'Search', body: form };

  const { search } = await ctx.gql<{ search: { query: string; results: Result[] } }>(QUERY, { q, type });
  let results = search.results;
  if (ctx.storeId) {
    // search has no store filter: a store-scoped user sees only their store's invoices.
    const invoiceIds = results.filter((r) => r.type === 'invoice').map((r) => r.id);
    const stores = new Map(await Promise.all(invoiceIds.map(async (id) => [id, await storeOfInvoice(ctx, id)] as const)));
    results = results.filter((r) => r.type !== 'invoice' || stores.get(r.id) === ctx.storeId);
  }
  const items = results.map((r) => {
    const name = r.vendorName ?? r.merchantName ?? 'Unknown';
    const title = r.type === 'invoice' ? `<a href="/app/invoices/${esc(r.id)}">${esc(name)}</a>` : esc(name);
    const facts = [r.date ? day(r.date) : null, r.total !== null ? money(r.total) : null, `${r.similarity}% match`].filter(Boolean).join(' · ');
    return `<li class="result"><span class="tag">${esc(r.type)}</span> <strong>${title}</strong> <span class="note">${esc(facts)}</span><p>${esc(r.preview)}</p></li>`;
  });
  return {
    title: 'Search',
    body: `${form}
<section><h2>${esc(`${items.length} result${items.length === 1 ? '' : 's'} for “${search.query}”`)}</h2>
${items.length ? `<ol class="results">${items.join('\n')}</ol>` : empty('Nothing matches. Try other words.')}</section>`,
  };
};

/** The invoice's store, or undefined when the user may not see the invoice. */
async function storeOfInvoice(ctx: PageContext, id: string): Promise<string | null | undefined> {
  try {
    return (await ctx.gql<{ invoice: { storeId: string | null } }>(INVOICE_STORE, { id })).invoice.storeId;
  } catch (err) {
    if (err instanceof PageError && err.status === 404) return undefined;
    throw err;
  }
}
