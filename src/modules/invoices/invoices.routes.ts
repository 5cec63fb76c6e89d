import { InvalidInput } from '../../platform/errors.ts';
import { formBoolean, formField, requiredFile, storeFlag } from '../../platform/rest/input.ts';
import type { AnyRestRoute } from '../../platform/rest/route.ts';
import type { ExtractedInvoiceFragment } from '../../platform/rest/generated/operations.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

/** DESIGN §9 spells the e-invoice source "e-invoice"; GraphQL's enum value cannot hold the hyphen (e_invoice). */
const restInvoice = (invoice: ExtractedInvoiceFragment) => ({ ...invoice, source: invoice.source === 'e_invoice' ? 'e-invoice' : invoice.source });

export const invoiceRoutes: AnyRestRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/partner/invoices/{id}',
    family: 'v1',
    operation: 'GetInvoice',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data) => ({ status: 200, body: restInvoice(data.invoice) }),
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
      force: formBoolean(body, 'force'),
    }),
    // DESIGN §9: the first invoice of the file, plus the other records of a multi-vendor split.
    respond: (data) => ({
      status: 201,
      body: { ...restInvoice(data.uploadInvoice.invoice), splitInvoices: data.uploadInvoice.splitInvoices.map(restInvoice) },
    }),
  },
  {
    method: 'POST',
    path: '/api/partner/extract-invoice',
    family: 'legacy',
    operation: 'LegacyExtractInvoice',
    variables: ({ body }) => ({ file: requiredFile(body, 'file'), store: storeFlag(body) }),
    respond: (data) => {
      const { status, error, ...invoice } = data.uploadInvoice.invoice;
      // The legacy family has no failed records: "invalid request, check file format".
      if (status === 'failed') throw new InvalidInput(`the document could not be processed: ${error ?? 'unknown reason'}`);
      return { status: 200, body: { success: true, ...invoice } };
    },
  },
];
