import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signing (https://www.standardwebhooks.com): secrets are `whsec_` + base64 of the key bytes;
// the signature is `v1,` + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")).

export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three Standard Webhooks headers; several secrets (during a rotation) give space-separated signatures. */
export function signedHeaders(secrets: readonly string[], id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => sign(s, id, timestamp, body)).join(' '),
  };
}
