import { readFileSync } from 'node:fs';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { inject } from 'vitest';
import { connect, createPglite, type Database } from '../../src/platform/db/connect.ts';
import { autoSharedBuffers } from '../../src/platform/db/pglite-buffers.ts';
import { startPgWireProxy } from './pg-wire-proxy.ts';
import { copyTemplate, createEmptyDatabase, dropDatabase, terminateConnections, urlOf } from './postgres.ts';

let template: Blob | undefined;

/**
 * shared_buffers of the tests' embedded databases: what the server's default (`PGLITE_SHARED_BUFFERS=auto`) gives a
 * database this small. PGlite's own default (128MB) is initialised at every start: loading the template took ~1.36 s
 * of CPU with it and ~0.97 s with this, and a run of the suite opens about a hundred.
 */
export const TEST_SHARED_BUFFERS = autoSharedBuffers(0);

/**
 * The template's dump as PGlite reads it: it only asks for the bytes (`arrayBuffer()`), given here as a copy of the
 * file read once. Node 20's Blob hands back its 42 MB in small chunks it then concatenates: ~0.15 s of CPU more for
 * each database (0.97 against 0.80 s to open one, measured).
 */
function templateDump(): Blob {
  const bytes = readFileSync(inject('templateDataDir'));
  const arrayBuffer = async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return { type: '', arrayBuffer } as unknown as Blob;
}

/** Which engine this run's test databases are on: PostgreSQL when the run has TEST_DATABASE_URL. */
export const testDatabaseKind = (): 'pglite' | 'postgres' => (inject('postgres') ? 'postgres' : 'pglite');

/**
 * A private, migrated database for one test file: a copy of the template built in global setup. Embedded PGlite
 * by default; on a PostgreSQL run (TEST_DATABASE_URL) a database copied with CREATE DATABASE … TEMPLATE, reached
 * through the production `pg` path and dropped on close.
 */
export async function freshDatabase(options: { onQuery?: (sql: string) => void; poolSize?: number } = {}): Promise<Database> {
  const postgres = inject('postgres');
  if (postgres) {
    const copy = await copyTemplate(postgres);
    const database = await connect({ databaseUrl: copy.url, poolSize: options.poolSize, onQuery: options.onQuery });
    return {
      ...database,
      async close() {
        await database.close();
        await copy.drop();
      },
    };
  }
  template ??= templateDump();
  const pglite = await createPglite({ loadDataDir: template, sharedBuffers: TEST_SHARED_BUFFERS });
  return connect({ pglite, ownsPglite: true, onQuery: options.onQuery });
}

export interface ServerDatabase {
  /** A `postgres://` URL that several pools and server processes can open at once. */
  url: string;
  kind: 'postgres' | 'pglite-socket';
  /** The server closes every connection to this database, as a restart or failover does. */
  dropConnections(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A database served over the Postgres wire protocol, for tests of several pools or processes on one database
 * (`migrated: false`: empty, for the migrations themselves). On a PostgreSQL run, a database of that server;
 * otherwise PGlite served by pglite-socket behind the wire proxy (pglite-socket's single backend would otherwise
 * interleave two connections' extended queries; see pg-wire-proxy.ts).
 */
export async function serverDatabase(options: { migrated?: boolean } = {}): Promise<ServerDatabase> {
  const migrated = options.migrated ?? true;
  const postgres = inject('postgres');
  if (postgres) {
    const name = migrated ? (await copyTemplate(postgres)).name : await createEmptyDatabase(postgres, `empty_${Math.random().toString(36).slice(2, 10)}`);
    return {
      url: urlOf(postgres.url, name),
      kind: 'postgres',
      dropConnections: () => terminateConnections(postgres, name),
      close: () => dropDatabase(postgres, name),
    };
  }
  if (migrated) template ??= templateDump();
  const pglite = await createPglite({ ...(migrated ? { loadDataDir: template } : {}), sharedBuffers: TEST_SHARED_BUFFERS });
  const socket = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 40 });
  await socket.start();
  const [host, port] = socket.getServerConn().split(':');
  const proxy = await startPgWireProxy({ host: host!, port: Number(port) });
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${proxy.port}/postgres?sslmode=disable`,
    kind: 'pglite-socket',
    dropConnections: async () => proxy.dropConnections(),
    async close() {
      await proxy.close();
      await socket.stop();
      await pglite.close();
    },
  };
}
