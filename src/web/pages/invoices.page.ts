import { esc } from '../html.ts';
import { storeName } from './format.ts';
import { type InvoiceListRow, LIVE_INVOICE_FIELDS, LIVE_SCRIPTS, liveInvoiceTable } from './invoice-rows.ts';
import { type PageHandler, param } from './page.ts';

const PAGE_SIZE = 25;

const LIST = `query InvoicePage($storeId: UUID, $first: Int!, $after: String) {
  stores { id name externalStoreId }
  invoices(first: $first, after: $after, filter: { storeId: $storeId }) {
    nodes { ${LIVE_INVOICE_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

type Store = { id: string; name: string | null; externalStoreId: string };

/**
 * Where files are dropped or chosen; assets/upload.js sends each to GraphQL uploadInvoice with a progress bar. A
 * tenant-wide user picks the store the invoices belong to; a store-scoped user's go to their store.
 */
const upload = (stores: Store[] | null) => `<section class="upload"><h2>Upload invoices</h2>
${
  stores?.length
    ? `<p><label>Store <select id="upload-store"><option value="">Not assigned to a store</option>${stores
        .map((s) => `<option value="${esc(s.id)}">${esc(storeName(s))}</option>`)
        .join('')}</select></label></p>`
    : ''
}
<div class="dropzone" id="dropzone" data-state="idle">
<p><strong>Drop invoice PDFs or photos here</strong> <span class="or">or</span>
<label class="button" for="upload-file">Choose files</label>
<input id="upload-file" type="file" accept="application/pdf,image/jpeg,image/png,image/webp,.xml" multiple></p>
<p class="note">PDF, JPEG, PNG or WEBP (or an e-invoice XML), up to 25 MB each. A file is read in a few seconds and shows in the list below as soon as it is recorded.</p>
</div>
<ul id="uploads" class="uploads" aria-live="polite"></ul></section>`;

/** Newest first, PAGE_SIZE a page (forward cursor in ?after=); the newest page is live, and files upload from here. */
export const invoicesPage: PageHandler = async (ctx) => {
  const after = param(ctx.query, 'after');
  const { stores, invoices } = await ctx.gql<{
    stores: Store[];
    invoices: { nodes: InvoiceListRow[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  }>(LIST, {
    storeId: ctx.storeId,
    first: PAGE_SIZE,
    after: after ?? null,
  });
  const pager = [
    after ? '<a href="/app/invoices">← Newest</a>' : '',
    invoices.pageInfo.hasNextPage && invoices.pageInfo.endCursor
      ? `<a href="/app/invoices?after=${encodeURIComponent(invoices.pageInfo.endCursor)}">Older →</a>`
      : '',
  ].filter(Boolean);
  const list = liveInvoiceTable({
    rows: invoices.nodes,
    columns: ['vendor', 'number', 'date', 'due', 'total', 'status', 'categories'],
    storeId: ctx.storeId,
    limit: PAGE_SIZE,
    live: !after,
    emptyHtml: after
      ? 'No older invoices. <a href="/app/invoices">Back to the newest</a>.'
      : 'No invoices yet. Drop a PDF or a photo of a vendor invoice above: its vendor, dates, totals and line items are read for you.',
  });
  return {
    title: 'Invoices',
    body: `${after ? '' : upload(ctx.storeId ? null : stores)}
<section><h2>${after ? 'Older invoices' : 'Invoices'}</h2>
${list}
${pager.length ? `<nav class="pager">${pager.join(' ')}</nav>` : ''}</section>`,
    scripts: after ? [] : [...LIVE_SCRIPTS, '/app/assets/upload.js'],
  };
};
