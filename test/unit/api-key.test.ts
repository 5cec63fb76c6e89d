import { expect, test } from 'vitest';
import { generateApiKey, hashApiKey, looksLikeApiKey } from '../../src/platform/auth/api-key.ts';
import { cacheAuthentication, keyFromHeaders } from '../../src/platform/auth/authenticate.ts';
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

test('the principal cache: one lookup per key per TTL, refusals never kept, everything forgotten at once', async () => {
  let clock = 0;
  const lookups: string[] = [];
  const live = new Set<string>();
  const authenticate = cacheAuthentication(
    async (apiKey) => {
      lookups.push(apiKey);
      if (!live.has(apiKey)) throw new Unauthenticated('invalid or revoked API key');
      return {
        keyId: apiKey,
        keyPrefix: apiKey.slice(0, 11),
        scopes: new Set(),
        partner: { id: 'p', name: 'P', tier: 'embed', legacyPlan: null },
        defaultTenantId: null,
      };
    },
    1000,
    () => clock,
  );
  const key = generateApiKey().apiKey;
  await expect(authenticate(key)).rejects.toThrow(Unauthenticated);
  live.add(key);
  const [a, b] = await Promise.all([authenticate(key), authenticate(key)]);
  expect(a).toBe(b);
  expect(lookups).toHaveLength(2); // the refusal was not kept; concurrent requests shared one lookup
  clock = 999;
  await authenticate(key);
  expect(lookups).toHaveLength(2);
  clock = 1001;
  await authenticate(key);
  expect(lookups).toHaveLength(3);
  live.delete(key);
  authenticate.forget(); // a revocation in this process
  await expect(authenticate(key)).rejects.toThrow(Unauthenticated);
  await expect(authenticate('not a key')).rejects.toThrow(Unauthenticated);
});
