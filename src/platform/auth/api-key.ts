import { createHash, randomBytes } from 'node:crypto';

// A key is shown once; only its SHA-256 is stored. The prefix (the first 11 characters) is kept for display
// and for revocation, and is unique.
const KEY_PATTERN = /^pk_[A-Za-z0-9_-]{32}$/;
const PREFIX_LENGTH = 11;

export interface NewKeyMaterial {
  apiKey: string;
  keyHash: string;
  prefix: string;
}

export function generateApiKey(): NewKeyMaterial {
  const apiKey = `pk_${randomBytes(24).toString('base64url')}`;
  return { apiKey, keyHash: hashApiKey(apiKey), prefix: apiKey.slice(0, PREFIX_LENGTH) };
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}
