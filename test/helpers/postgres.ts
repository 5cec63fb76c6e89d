import { randomBytes } from 'node:crypto';
import pg from 'pg';

// Real PostgreSQL for tests (TEST_DATABASE_URL): immich's approach. Global setup migrates one template database
// per run; every test file (and every shared database of a multi-instance test) gets `CREATE DATABASE … TEMPLATE`,
// a copy in a few tens of milliseconds, and drops it when done. Names carry the run's prefix, so global teardown
// drops whatever a crashed file left behind.

export interface PostgresTemplate {
  /** TEST_DATABASE_URL: the server (and a database on it to connect to for CREATE/DROP DATABASE). */
  url: string;
  /** Every database of this run starts with it; the template is `${prefix}_template`. */
  prefix: string;
}

/** The URL of `database` on the server of `url`. */
export function urlOf(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const ident = (name: string) => {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a test database name: ${name}`);
  return `"${name}"`;
};

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const templateName = (t: PostgresTemplate) => `${t.prefix}_template`;

/** A new empty database of this run (the template is made this way, then migrated). */
export async function createEmptyDatabase(t: PostgresTemplate, suffix: string): Promise<string> {
  const name = `${t.prefix}_${suffix}`;
  await admin(t.url, (c) => c.query(`create database ${ident(name)}`));
  return name;
}

/** A copy of the migrated template: its URL, and a drop for when the file is done with it. */
export async function copyTemplate(t: PostgresTemplate): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${t.prefix}_${randomBytes(5).toString('hex')}`;
  // CREATE DATABASE copies the template only while nobody is connected to it; global setup closed its pool, and
  // concurrent copies of one template are allowed.
  await admin(t.url, (c) => c.query(`create database ${ident(name)} template ${ident(templateName(t))}`));
  return { url: urlOf(t.url, name), name, drop: () => dropDatabase(t, name) };
}

export async function dropDatabase(t: PostgresTemplate, name: string): Promise<void> {
  await admin(t.url, (c) => c.query(`drop database if exists ${ident(name)} with (force)`));
}

/** Ends every session connected to `name` (pg_terminate_backend), as a server restart would. */
export async function terminateConnections(t: PostgresTemplate, name: string): Promise<void> {
  await admin(t.url, (c) => c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]));
}

/** Drops every database of this run (global teardown). */
export async function dropRun(t: PostgresTemplate): Promise<void> {
  await admin(t.url, async (c) => {
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [`${t.prefix}_`]);
    for (const { datname } of rows) await c.query(`drop database if exists ${ident(datname)} with (force)`);
  });
}
