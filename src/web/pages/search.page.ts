import { esc } from '../html.ts';
import { day, money } from './format.ts';
import { empty } from './layout.ts';
import { PageError } from './page-graphql.ts';
import { type PageContext, type PageHandler, param } from './page.ts';
import type { SearchResult } from '../../modules/search/search.service.ts';

// Relevant results only (GraphQL search with relevantOnly), grouped by kind, the query's words marked in each preview.
const QUERY = `query SearchPage($q: String!, $type: SearchResultType) {
  search(query: $q, type: $type, limit: 30, relevantOnly: true) {
    query totalResults
    results { type id similarity preview matchedTerms highlights { start length } vendorName merchantName total date }
  }
}`;

// One invoice's store, read through the API's own access checks (an invoice the user may not see is "not found").
const INVOICE_STORE = `query SearchPageInvoiceStore($id: UUID!) { invoice(id: $id) { storeId } }`;

const TYPES = ['invoice', 'vendor', 'receipt'] as const satisfies readonly SearchResult['type'][];
const GROUPS: Record<SearchResult['type'], string> = { invoice: 'Invoices', vendor: 'Vendors', receipt: 'Receipts' };

type Result = SearchResult;

/** The preview with the stretches the API marked wrapped in <mark>. */
function marked(text: string, ranges: Result['highlights']): string {
  let out = '';
  let at = 0;
  for (const r of ranges) {
    if (r.start < at) continue;
    out += esc(text.slice(at, r.start)) + `<mark>${esc(text.slice(r.start, r.start + r.length))}</mark>`;
    at = r.start + r.length;
  }
  return out + esc(text.slice(at));
}

function item(r: Result): string {
  const name = r.vendorName ?? r.merchantName ?? 'Unknown';
  const title = r.type === 'invoice' ? `<a href="/app/invoices/${esc(r.id)}">${esc(name)}</a>` : esc(name);
  const why = r.matchedTerms.length ? `contains “${r.matchedTerms.join('”, “')}”` : `close in meaning (${r.similarity}%)`;
  const facts = [r.date ? day(r.date) : null, r.total !== null ? money(r.total) : null, why].filter(Boolean).join(' · ');
  return `<li class="result"><strong>${title}</strong> <span class="note">${esc(facts)}</span><p>${marked(r.preview, r.highlights)}</p></li>`;
}

/** A search form; results by meaning and by word over the tenant's invoices, vendors and receipts. */
export const searchPage: PageHandler = async (ctx) => {
  const q = param(ctx.query, 'q');
  const typeParam = param(ctx.query, 'type');
  const type = TYPES.find((t) => t === typeParam) ?? null;
  const options = [['', 'Everything'], ...TYPES.map((t) => [t, GROUPS[t]])]
    .map(([v, text]) => `<option value="${v}"${(type ?? '') === v ? ' selected' : ''}>${esc(text)}</option>`)
    .join('');
  const form = `<form class="search" method="get" action="/app/search" role="search">
<label for="q">Search your documents</label>
<div class="row"><input id="q" name="q" type="search" value="${esc(q ?? '')}" minlength="2" maxlength="500" placeholder="e.g. salmon, napkins, Hudson Valley" required>
<select name="type" aria-label="What to search">${options}</select><button type="submit">Search</button></div></form>`;
  if (!q) {
    return {
      title: 'Search',
      body: `${form}${empty('Search by what was bought (“salmon”, “napkins”), a vendor’s name, or a kind of cost (“cleaning supplies”).')}`,
    };
  }

  const { search } = await ctx.gql<{ search: { query: string; results: Result[] } }>(QUERY, { q, type });
  let results = search.results;
  if (ctx.storeId) {
    // search has no store filter: a store-scoped user sees only their store's invoices.
    const invoiceIds = results.filter((r) => r.type === 'invoice').map((r) => r.id);
    const stores = new Map(await Promise.all(invoiceIds.map(async (id) => [id, await storeOfInvoice(ctx, id)] as const)));
    results = results.filter((r) => r.type !== 'invoice' || stores.get(r.id) === ctx.storeId);
  }
  const groups = TYPES.map((t) => [t, results.filter((r) => r.type === t)] as const).filter(([, rs]) => rs.length > 0);
  const sections = groups.map(
    ([t, rs]) => `<section><h2>${esc(GROUPS[t])} <span class="count">${rs.length}</span></h2><ol class="results">${rs.map(item).join('\n')}</ol></section>`,
  );
  return {
    title: 'Search',
    body: `${form}
<p class="note" role="status">${esc(`${results.length} relevant result${results.length === 1 ? '' : 's'} for “${search.query}”`)}</p>
${sections.join('\n') || empty(`Nothing relevant for “${search.query}”. Try the name of an item or a vendor, fewer words, or another spelling.`)}`,
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
