import { formBoolean, formField, requiredFile, storeFlag } from '../../platform/rest/input.ts';
import type { AnyRestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const receiptRoutes: AnyRestRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/partner/receipts/upload',
    family: 'v1',
    operation: 'UploadReceipt',
    variables: ({ body }) => ({ file: requiredFile(body, 'file'), useType: formField(body, 'useType'), force: formBoolean(body, 'force') }),
    respond: (data) => ({ status: 201, body: data.uploadReceipt }),
  },
  {
    method: 'POST',
    path: '/api/partner/extract-receipt',
    family: 'legacy',
    operation: 'LegacyExtractReceipt',
    variables: ({ body }) => ({ file: requiredFile(body, 'file'), store: storeFlag(body) }),
    respond: (data) => ({ status: 200, body: { success: true, ...data.uploadReceipt } }),
  },
];
