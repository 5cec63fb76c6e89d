// Example: upload an invoice over REST and read it back, typed from schema/openapi.yaml: openapi-typescript generates
// ./generated/openapi.ts (`npm run codegen`; a format: binary part is typed Blob), openapi-fetch checks every path,
// parameter, body and response against it.
//   PARTNER_API_URL=http://localhost:4000 PARTNER_API_KEY=pk_… npx tsx examples/rest-client/main.ts invoice.pdf
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import createClient from 'openapi-fetch';
import type { paths } from './generated/openapi.ts';

export interface Connection {
  /** The API's base URL, e.g. http://localhost:4000 */
  baseUrl: string;
  /** A partner API key (pk_…), sent as X-API-Key. */
  apiKey: string;
}

/** Uploads `file` as an invoice (multipart/form-data), then reads the first invoice of it back. */
export async function main(connection: Connection, file: File) {
  const client = createClient<paths>({ baseUrl: connection.baseUrl, headers: { 'X-API-Key': connection.apiKey } });
  const upload = await client.POST('/api/v1/partner/invoices/upload', {
    body: { file },
    // openapi-fetch sends JSON unless told otherwise; the upload is multipart (fetch sets the boundary).
    bodySerializer: (body) => {
      const form = new FormData();
      form.append('file', body.file, file.name);
      return form;
    },
  });
  if (!upload.data) throw new Error(`upload: HTTP ${upload.response.status}: ${upload.error?.error ?? 'no body'}`);
  const read = await client.GET('/api/v1/partner/invoices/{id}', { params: { path: { id: upload.data.id } } });
  if (!read.data) throw new Error(`read: HTTP ${read.response.status}: ${read.error?.error ?? 'no body'}`);
  return { uploaded: upload.data, readBack: read.data };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file] = process.argv.slice(2);
  const baseUrl = process.env.PARTNER_API_URL ?? 'http://localhost:4000';
  const apiKey = process.env.PARTNER_API_KEY;
  if (!file || !apiKey) {
    console.error('usage: PARTNER_API_KEY=pk_… [PARTNER_API_URL=http://localhost:4000] npx tsx examples/rest-client/main.ts <invoice.pdf>');
    process.exit(2);
  }
  const bytes = await readFile(file);
  console.log(JSON.stringify(await main({ baseUrl, apiKey }, new File([bytes], path.basename(file))), null, 2));
}
