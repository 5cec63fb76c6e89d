import type { CreatedPartner } from '../modules/partners/partners.service.ts';

/** What `npm start` prints: where everything is, and (first start only) a working key. */
export function startBanner(opts: { url: string; database: string; demo?: CreatedPartner }): string {
  const lines = [
    '',
    `Partner API listening on ${opts.url}  (database: ${opts.database})`,
    `  GraphQL + subscriptions  ${opts.url}/graphql`,
    `  REST v1                  ${opts.url}/api/v1/partner/...   (X-API-Key header)`,
    `  REST legacy              ${opts.url}/api/partner/...      (Authorization: Bearer)`,
    `  GraphQL explorer         ${opts.url}/graphql   (open it in a browser; paste the API key)`,
    `  REST reference           ${opts.url}/docs   (OpenAPI 3.1: ${opts.url}/openapi.json)`,
    `  Health / readiness       ${opts.url}/healthz  ${opts.url}/readyz`,
  ];
  if (opts.demo) {
    lines.push(
      '',
      'First start: created a demo partner (tier embed). Its API key is shown only now:',
      `  partnerId ${opts.demo.partnerId}`,
      `  apiKey    ${opts.demo.apiKey}`,
      '',
      'Try it:',
      `  curl -H 'X-API-Key: ${opts.demo.apiKey}' ${opts.url}/api/v1/partner/vendors`,
      `  curl -H 'X-API-Key: ${opts.demo.apiKey}' -H 'Content-Type: application/json' \\`,
      `       -d '{"query":"{ viewer { name tier scopes tenants { id name } } }"}' ${opts.url}/graphql`,
    );
  } else {
    lines.push('', 'Keys: npm run admin -- create-partner --name NAME --tier extraction|storage|embed');
  }
  return `${lines.join('\n')}\n`;
}
