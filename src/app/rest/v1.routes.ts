import { InvalidInput } from '../../platform/errors.ts';
import { formField, jsonObject, optionalInt, optionalString, requiredFile, requiredText } from '../../platform/rest/input.ts';
import type { RestRoute } from '../../platform/rest/route.ts';

type ExtractedInvoice = { source?: string | null };

/** DESIGN §9 spells the e-invoice source "e-invoice"; GraphQL's enum value cannot hold the hyphen (e_invoice). */
const restInvoice = <T extends ExtractedInvoice>(invoice: T): T =>
  invoice.source === 'e_invoice' ? { ...invoice, source: 'e-invoice' } : invoice;

export const v1Routes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/partner/vendors',
    family: 'v1',
    operation: 'ListVendors',
    variables: ({ query }) => ({ limit: optionalInt(query, 'limit'), offset: optionalInt(query, 'offset') }),
    respond: (data: { vendors: unknown[] }) => ({ status: 200, body: { vendors: data.vendors } }),
  },
  {
    method: 'GET',
    path: '/api/v1/partner/invoices/{id}',
    family: 'v1',
    operation: 'GetInvoice',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data: { invoice: ExtractedInvoice }) => ({ status: 200, body: restInvoice(data.invoice) }),
  },
  {
    method: 'POST',
    path: '/api/v1/partner/invoices/upload',
    family: 'v1',
    operation: 'UploadInvoice',
    variables: ({ body }) => ({
      file: requiredFile(body, 'file'),
      tenantId: formField(body, 'tenantId'),
      storeId: formField(body, 'storeId'),
    }),
    // DESIGN §9: the first invoice of the file, plus the other records of a multi-vendor split.
    respond: (data: { uploadInvoice: { invoice: ExtractedInvoice; splitInvoices: ExtractedInvoice[] } }) => ({
      status: 201,
      body: { ...restInvoice(data.uploadInvoice.invoice), splitInvoices: data.uploadInvoice.splitInvoices.map(restInvoice) },
    }),
  },
  {
    method: 'POST',
    path: '/api/v1/partner/receipts/upload',
    family: 'v1',
    operation: 'UploadReceipt',
    variables: ({ body }) => ({ file: requiredFile(body, 'file'), useType: formField(body, 'useType') }),
    respond: (data: { uploadReceipt: unknown }) => ({ status: 201, body: data.uploadReceipt }),
  },
  {
    method: 'GET',
    path: '/api/v1/partner/search',
    family: 'v1',
    operation: 'Search',
    variables: ({ query }) => ({
      query: requiredText(optionalString(query, 'q'), 'q'),
      type: optionalString(query, 'type'),
      limit: optionalInt(query, 'limit'),
    }),
    respond: (data: { search: unknown }) => ({ status: 200, body: { success: true, data: data.search } }),
  },
  {
    method: 'POST',
    path: '/api/v1/partner/tenants/{tenantId}/search',
    family: 'v1',
    operation: 'Search',
    variables: ({ params, body }) => {
      const json = jsonObject(body);
      return {
        tenantId: params.tenantId,
        query: requiredText(json.query, 'query'),
        type: json.type ?? undefined,
        limit: json.limit ?? undefined,
      };
    },
    respond: (data: { search: unknown }) => ({ status: 200, body: { success: true, data: data.search } }),
  },
  {
    method: 'POST',
    path: '/api/v1/partner/webhooks',
    family: 'v1',
    operation: 'RegisterWebhook',
    variables: ({ body }) => {
      const json = jsonObject(body);
      if (json.url === undefined || json.url === null) throw InvalidInput.field('url', 'is required');
      // GraphQL would coerce a lone string into a list; the contract says array.
      if (!Array.isArray(json.events)) throw InvalidInput.field('events', 'is required: an array of event names');
      return { url: json.url, events: json.events };
    },
    respond: (data: { registerWebhook: unknown }) => ({ status: 201, body: data.registerWebhook }),
  },
];

