import { connect } from './platform/db/connect.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { compose } from './app/compose.ts';
import { type AdminArgs, isAdminCommand, runAdminCommand } from './app/admin/commands.ts';
import { acquireDataDirLock, DataDirLockedError, liveLockHolder } from './app/admin/data-dir-lock.ts';
import { DEMO_PARTNER_NAME, type DemoSeedSummary } from './app/admin/demo-seed.ts';
import { type Config, loadConfig } from './platform/config.ts';
import { AppError } from './platform/errors.ts';
import { buildWordVectorCache } from './platform/embeddings/word-vector-cache.build.ts';

// Admin CLI: `npm run --silent admin -- <command> [--flag value ...]`, one JSON line on stdout (--silent keeps npm's
// `> script` header off stdout). `npm run seed -- --demo`
// is the `seed` command (`--demo` is a bare flag).
// With the embedded database it never opens a data directory another process holds: while a server owns
// it, the command goes through that server's loopback admin endpoint.

const USAGE = `usage:
  npm run admin -- create-partner --name NAME --tier extraction|storage|embed [--legacy-plan starter|professional|enterprise]
  npm run admin -- create-key --partner PARTNER_ID [--scopes scope1,scope2]
  npm run admin -- revoke-key --prefix KEY_PREFIX
  npm run admin -- reindex                 re-embed every invoice, receipt and vendor (after changing EMBEDDER)
  npm run admin -- build-embeddings        (re)build the local embedder's word-vector cache
  npm run admin -- set-price --partner PARTNER_ID --price USD|none   a custom price per document (Platform Embed)
  npm run seed -- --demo                   a demo restaurant group with a month of inventory and scheduling data`;

const SEED_USAGE = `usage: npm run seed -- --demo
  Creates the partner "Demo Restaurant Group" (tier embed) with 3 stores, 20 employees, a month of schedules,
  punches and point-of-sale sales ending today (UTC), inventory items and counts, and time-off requests.
  Prints one JSON line: the partner, tenant and store ids, its API key (shown once) and what was created.
  Runs once per database: if the demo partner exists it is refused (exit 1), naming the partner.`;

/** Flags that take no value (`--demo`); every other flag is `--flag value` or `--flag=value`. */
const BARE_FLAGS = new Set(['demo']);

class UsageError extends Error {}

function parseArgs(argv: string[]): { command: string; args: AdminArgs } {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') throw new UsageError(USAGE);
  if (!isAdminCommand(command)) throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  const args: AdminArgs = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    const m = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(token);
    if (!m) throw new UsageError(`unexpected argument "${token}"\n${USAGE}`);
    if (BARE_FLAGS.has(m[1]!)) {
      if (m[2] !== undefined) throw new UsageError(`--${m[1]} takes no value\n${USAGE}`);
      args[m[1]!] = 'true';
      continue;
    }
    const value = m[2] ?? rest[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${m[1]} needs a value\n${USAGE}`);
    args[m[1]!] = value;
  }
  if (command === 'seed' && (args.demo !== 'true' || Object.keys(args).length !== 1)) throw new UsageError(SEED_USAGE);
  return { command, args };
}

async function viaServer(port: number, token: string, command: string, args: AdminArgs): Promise<object> {
  const res = await fetch(`http://127.0.0.1:${port}/_admin/commands/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': token },
    body: JSON.stringify(args),
  });
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new Error(body.error ?? `the running server answered ${res.status}`);
  return body;
}

/** A progress bar on stderr when it is a terminal (stdout keeps the one JSON line). */
function progressBar(label: string): (done: number, total: number) => void {
  if (!process.stderr.isTTY) return () => {};
  return (done, total) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done >= total ? '\n' : ''}`);
  };
}

async function direct(
  config: Config,
  options: { databaseUrl: string; poolSize: number; preparedStatements: number } | { dataDir: string; sharedBuffers?: string },
  command: string,
  args: AdminArgs,
): Promise<object> {
  const lock = 'dataDir' in options ? acquireDataDirLock(options.dataDir, 'cli') : undefined;
  try {
    const database = await connect(options);
    try {
      await migrateToLatest(database.db);
      // The services come from the composition root, as the server's do; only reindex opens the embedder (the reader
      // never starts a worker here).
      const log = { info: () => {}, warn: (obj: object, msg?: string) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`), error: () => {} };
      const { services, close } = await compose({ config, database, log, embedder: command === 'reindex' || command === 'seed' ? 'open' : 'none' });
      try {
        const { partners, search } = services;
        if (command === 'seed') return await runAdminCommand({ partners, seed: { services, db: database.db } }, command, args);
        if (command !== 'reindex') return await runAdminCommand({ partners }, command, args);
        return await runAdminCommand({ partners, search, onProgress: progressBar('reindex') }, command, args);
      } finally {
        await close();
      }
    } finally {
      await database.close();
    }
  } finally {
    lock?.release();
  }
}

async function run(): Promise<void> {
  const { command, args } = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  let result: object;
  let serverPort: number | undefined;
  if (command === 'build-embeddings') {
    // Only a file under EMBEDDINGS_CACHE_DIR (written atomically): no database, no lock.
    if (config.embedder.kind !== 'local') throw new UsageError('build-embeddings is for EMBEDDER=local');
    result = await buildWordVectorCache(config.embedder.cacheDir, { onProgress: progressBar('word vectors') });
  } else if (config.databaseUrl) {
    result = await direct(
      config,
      { databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements },
      command,
      args,
    );
  } else {
    const holder = liveLockHolder(config.dataDir);
    if (holder?.owner === 'server' && holder.adminPort && holder.adminToken) {
      result = await viaServer(holder.adminPort, holder.adminToken, command, args);
      serverPort = holder.adminPort;
    } else if (holder) {
      throw new DataDirLockedError(holder, config.dataDir);
    } else {
      result = await direct(config, { dataDir: config.dataDir, sharedBuffers: config.pgliteSharedBuffers }, command, args);
    }
  }
  if (command === 'seed') result = withCurl(result as DemoSeedSummary, config, serverPort);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/** Adds a ready-to-paste curl of the demo month's labor report (also on stderr, for a human at a terminal). */
function withCurl(summary: DemoSeedSummary, config: Config, serverPort: number | undefined): object {
  // The running server's own address when it is the default localhost one (as main.ts prints it).
  const base = serverPort && config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${serverPort}` : config.publicUrl;
  const curl = `curl -H 'X-API-Key: ${summary.apiKey}' '${base}${summary.laborReportPath}'`;
  process.stderr.write(
    `Demo partner "${DEMO_PARTNER_NAME}" seeded (${summary.startDate} to ${summary.endDate}); its API key is shown only now.\n` +
      `Labor report${serverPort ? '' : ' (once `npm start` runs)'}:\n  ${curl}\n`,
  );
  return { ...summary, laborReportCurl: curl };
}

run().catch((err) => {
  const message =
    err instanceof UsageError || err instanceof AppError || err instanceof DataDirLockedError ? err.message : err instanceof Error ? err.message : String(err);
  process.stderr.write(`${message}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
