import path from 'node:path';
import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('defaults: port 4000, ./data, embedded database, public URL from the port', () => {
  const c = loadConfig({});
  expect(c).toMatchObject({ port: 4000, dataDir: path.resolve('./data'), databaseUrl: undefined, publicUrl: 'http://localhost:4000', logLevel: 'info' });
});

test('values are parsed and empty strings mean unset', () => {
  const c = loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db', PUBLIC_URL: 'https://api.example.com/', LOG_LEVEL: '' });
  expect(c).toMatchObject({ port: 8080, databaseUrl: 'postgres://u:p@127.0.0.1:5432/db', publicUrl: 'https://api.example.com', logLevel: 'info' });
});

test('every bad variable is reported at once', () => {
  let error: unknown;
  try {
    loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', PUBLIC_URL: 'not a url' });
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as Error).message;
  for (const name of ['PORT', 'LOG_LEVEL', 'PUBLIC_URL']) expect(message).toContain(name);
});
