// The embedded database's own thread (issue 17): a worker that owns the PGlite instance and runs the statements
// pglite-thread.ts sends it, strictly in arrival order, one at a time. Postgres' executor, its output functions,
// the protocol parsing and pg-types' parsing of every value all run here, so the main thread keeps HTTP, GraphQL
// and JSON while this one keeps the database.
import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { RowNames } from './camel-case-rows.ts';
import { openPglite } from './pglite-open.ts';
import './pg-values.ts';
import { runStatement } from './pglite-protocol.ts';
import type { EngineReply, EngineRequest, WorkerOptions } from './pglite-thread.ts';

const port = parentPort!;
const rowNames = new RowNames();
const options = workerData as WorkerOptions;

/** A database error as plain fields (structured cloning keeps only an Error's name and message): code, constraint, … */
function errorFields(err: unknown): NonNullable<EngineReply['error']> {
  if (!(err instanceof Error)) {
    // Emscripten's file-system errors are plain objects: { name: 'ErrnoError', errno }.
    const e = err as { name?: unknown; errno?: unknown } | null;
    return { message: e && typeof e === 'object' && 'errno' in e ? `${String(e.name)} (errno ${String(e.errno)})` : String(err) };
  }
  return { ...(err as unknown as Record<string, unknown>), name: err.name, message: err.message };
}

/** Answers one request; a reply that cannot be cloned is answered with an error instead of ending the thread. */
function reply(message: EngineReply): void {
  try {
    port.postMessage(message);
  } catch (err) {
    port.postMessage({ id: message.id, error: { message: `the embedded database's answer could not be passed on: ${String(err)}` } });
  }
}

async function run(pglite: PGlite, request: EngineRequest): Promise<EngineReply> {
  try {
    const { columns, values, command, rowCount, bytea } = await runStatement(pglite, request.sql, request.params, request.camelCase ? rowNames : undefined);
    return { id: request.id, columns, values, command, rowCount, bytea };
  } catch (err) {
    return { id: request.id, error: errorFields(err) };
  }
}

let pglite: PGlite;
try {
  pglite = await openPglite(options);
} catch (err) {
  // The thread ends once the port is closed; the main thread rejects its start with this error.
  const message = `the embedded database in ${options.dataDir} could not be opened: ${errorFields(err).message}`;
  port.postMessage({ id: 0, error: { message } } satisfies EngineReply);
  port.close();
  throw new Error(message);
}

let tail = Promise.resolve();
port.on('message', (request: EngineRequest | { close: true }) => {
  if ('close' in request) {
    tail = tail.then(async () => {
      await pglite.close();
      port.close();
    });
    return;
  }
  tail = tail.then(async () => reply(await run(pglite, request)));
});
port.postMessage({ id: 0 } satisfies EngineReply);
