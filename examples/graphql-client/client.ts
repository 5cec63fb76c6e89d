// A small typed GraphQL client over fetch: the operations are the client preset's typed document strings
// (./generated/, from the graphql(`…`) calls in main.ts), so variables and results are checked by TypeScript.
import type { TypedDocumentString } from './generated/graphql.ts';

export interface Connection {
  /** The API's base URL, e.g. http://localhost:4000 */
  baseUrl: string;
  /** A partner API key (pk_…), sent as X-API-Key. */
  apiKey: string;
}

interface GraphQLResponse<R> {
  data?: R | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

/**
 * Runs one operation. Variables that are files (Blob or File) are sent as the GraphQL multipart request spec says
 * (operations + map + one part per file, with the Apollo-Require-Preflight header the server's CSRF protection asks
 * for); everything else is a JSON POST. Throws with the first error's code and message.
 */
export async function execute<R, V extends Record<string, unknown>>(connection: Connection, document: TypedDocumentString<R, V>, variables: V): Promise<R> {
  const query = document.toString();
  const files = Object.entries(variables).filter((entry): entry is [string, Blob] => entry[1] instanceof Blob);
  const headers: Record<string, string> = { 'x-api-key': connection.apiKey };
  let body: FormData | string;
  if (files.length > 0) {
    const form = new FormData();
    const nulled = { ...variables, ...Object.fromEntries(files.map(([name]) => [name, null])) };
    form.append('operations', JSON.stringify({ query, variables: nulled }));
    form.append('map', JSON.stringify(Object.fromEntries(files.map(([name], i) => [String(i), [`variables.${name}`]]))));
    files.forEach(([name, blob], i) => form.append(String(i), blob, blob instanceof File ? blob.name : name));
    headers['apollo-require-preflight'] = 'true';
    body = form;
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify({ query, variables });
  }
  const response = await fetch(new URL('/graphql', connection.baseUrl), { method: 'POST', headers, body });
  const result = (await response.json()) as GraphQLResponse<R>;
  const [first] = result.errors ?? [];
  if (first) throw new Error(`${first.extensions?.code ?? `HTTP ${response.status}`}: ${first.message}`);
  if (!result.data) throw new Error(`HTTP ${response.status}: no data`);
  return result.data;
}
