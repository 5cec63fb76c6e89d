import { InvalidInput } from '../../platform/errors.ts';
import { formBoolean, requiredFile } from '../../platform/rest/input.ts';
import type { RestRoute } from '../../platform/rest/route.ts';

const store = (body: unknown) => formBoolean(body, 'store') ?? false;

export const legacyRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/partner/extract-invoice',
    family: 'legacy',
    operation: 'LegacyExtractInvoice',
    variables: ({ body }) => ({ file: requiredFile(body, 'file'), store: store(body) }),
    respond: (data: { uploadInvoice: { invoice: { status: string; error: string | null } & Record<string, unknown> } }) => {
      const { status, error, ...invoice } = data.uploadInvoice.invoice;
      // The legacy family has no failed records: "invalid request, check file format".
      if (status === 'failed') throw new InvalidInput(`the document could not be processed: ${error ?? 'unknown reason'}`);
      return { status: 200, body: { success: true, ...invoice } };
    },
  },
  {
    method: 'POST',
    path: '/api/partner/extract-receipt',
    family: 'legacy',
    operation: 'LegacyExtractReceipt',
    variables: ({ body }) => ({ file: requiredFile(body, 'file'), store: store(body) }),
    respond: (data: { uploadReceipt: Record<string, unknown> }) => ({ status: 200, body: { success: true, ...data.uploadReceipt } }),
  },
  {
    method: 'GET',
    path: '/api/partner/usage',
    family: 'legacy',
    operation: 'LegacyUsage',
    variables: () => ({}),
    respond: (data: { legacyUsage: Record<string, unknown> }) => ({ status: 200, body: { success: true, ...data.legacyUsage } }),
  },
];
