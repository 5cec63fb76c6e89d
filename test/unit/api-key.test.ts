import { expect, test } from 'vitest';
import { generateApiKey, hashApiKey, looksLikeApiKey } from '../../src/platform/auth/api-key.ts';
import { keyFromHeaders } from '../../src/platform/auth/authenticate.ts';
import { Unauthenticated } from '../../src/platform/errors.ts';

test('keys are random, well-formed, and stored only as a SHA-256 with an 11-character prefix', () => {
  const a = generateApiKey();
  const b = generateApiKey();
  expect(a.apiKey).not.toBe(b.apiKey);
  expect(looksLikeApiKey(a.apiKey)).toBe(true);
  expect(a.keyHash).toBe(hashApiKey(a.apiKey));
  expect(a.keyHash).toMatch(/^[0-9a-f]{64}$/);
  expect(a.prefix).toBe(a.apiKey.slice(0, 11));
  expect(looksLikeApiKey('pk_short')).toBe(false);
});

test('keys are read from the header each family uses', () => {
  const key = generateApiKey().apiKey;
  expect(keyFromHeaders({ 'x-api-key': key }, 'x-api-key')).toBe(key);
  expect(keyFromHeaders({ authorization: `Bearer ${key}` }, 'bearer')).toBe(key);
  expect(keyFromHeaders({ authorization: `bearer  ${key}` }, 'either')).toBe(key);
  expect(() => keyFromHeaders({ authorization: `Bearer ${key}` }, 'x-api-key')).toThrow(Unauthenticated);
  expect(() => keyFromHeaders({ 'x-api-key': key }, 'bearer')).toThrow(/Authorization: Bearer/);
  expect(() => keyFromHeaders({ authorization: `Basic ${key}` }, 'either')).toThrow(/missing API key/);
});
