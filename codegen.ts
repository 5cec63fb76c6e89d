// graphql-codegen's configuration, run by tools/codegen.ts (`npm run codegen`; `npm run codegen:check` in CI):
// the resolver types of the SDL and the result types of the stored REST operations (docs/architecture.md).
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: ['src/platform/graphql/common.graphql', 'src/modules/*/*.graphql'],
  generates: {
    'src/app/generated/resolvers.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        // The SDL is a federation subgraph: @key types get a typed __resolveReference (src/platform/graphql/federation.ts).
        federation: true,
        contextType: '../context.ts#RequestContext',
        // GraphQL object types → the domain types the services return (field resolvers fill in the rest).
        mappers: {
          DomainEvent: '../../platform/events/domain-event.ts#DomainEvent',
          Employee: '../../modules/scheduling/scheduling.model.ts#Employee',
          InventoryCount: '../../modules/inventory/inventory.service.ts#InventoryCount',
          InventoryItem: '../../modules/inventory/inventory.service.ts#InventoryItem',
          Invoice: '../../modules/invoices/invoice.ts#Invoice',
          LineItem: '../../modules/invoices/invoice.ts#LineItem',
          Receipt: '../../modules/receipts/receipts.service.ts#Receipt',
          Schedule: '../../modules/scheduling/scheduling.model.ts#Schedule',
          Shift: '../../modules/scheduling/scheduling.model.ts#Shift',
          Store: '../../modules/tenants/tenants.service.ts#StoreRow',
          Tenant: '../../modules/tenants/tenants.service.ts#TenantRow',
          TimeOffRequest: '../../modules/scheduling/scheduling.model.ts#TimeOffRequest',
          TimePunch: '../../modules/scheduling/scheduling.model.ts#TimePunch',
          User: '../../modules/tenants/tenants.service.ts#UserRow',
          Viewer: '../../modules/partners/viewer.resolvers.ts#Viewer',
          Vendor: '../../modules/vendors/vendors.service.ts#Vendor',
          Webhook: '../../modules/webhooks/webhooks.service.ts#Webhook',
          WebhookDelivery: '../../modules/webhooks/webhooks.service.ts#WebhookDelivery',
        },
        mapperTypeSuffix: 'Model',
        enumValues: { InvoiceSource: '../../extraction/types.ts#InvoiceSource' },
        scalars: {
          UUID: 'string',
          Date: 'string',
          DateTime: { input: 'Date', output: 'Date | string' },
          URL: { input: 'URL', output: 'URL | string' },
          EmailAddress: 'string',
          JSONObject: 'Record<string, unknown>',
          Upload: { input: '../../platform/lib/uploaded-file.ts#UploadedFile', output: 'never' },
        },
      },
    },
    // The stored REST operations' results (and variables): platform/rest/route.ts types each route's `respond` by
    // its operation (tools/codegen.ts appends the name → types map, StoredOperations).
    'src/platform/rest/generated/operations.ts': {
      documents: ['src/modules/*/operations/*.graphql', 'src/platform/rest/fragments.graphql'],
      plugins: ['typescript-operations'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        skipTypename: true,
        preResolveTypes: true,
        // Values as the executor hands them to `respond` (serialized: a DateTime may still be a Date until JSON).
        scalars: {
          UUID: 'string',
          Date: 'string',
          DateTime: { input: 'string', output: 'Date | string' },
          URL: 'string',
          EmailAddress: 'string',
          JSONObject: 'Record<string, unknown>',
          Upload: { input: 'unknown', output: 'never' },
        },
      },
    },
    // examples/graphql-client: the typed client a partner generates with the client preset (its operations are the
    // graphql(`…`) calls in the example's files); documents as typed strings, sent with fetch.
    'examples/graphql-client/generated/': {
      documents: ['examples/graphql-client/*.ts'],
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        importExtension: '.ts',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          UUID: 'string',
          Date: 'string',
          DateTime: 'string',
          URL: 'string',
          EmailAddress: 'string',
          JSONObject: 'Record<string, unknown>',
          Upload: { input: 'Blob', output: 'never' },
        },
      },
    },
  },
};
export default config;
