import { connect } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { type AdminArgs, isAdminCommand, runAdminCommand } from './admin/commands.ts';
import { acquireDataDirLock, DataDirLockedError, liveLockHolder } from './admin/data-dir-lock.ts';
import { loadConfig } from './config.ts';
import { AppError } from './errors.ts';
import { createPartnersService } from './partners.service.ts';

// Admin CLI: `npm run admin -- <command> [--flag value ...]`, one JSON line on stdout.
// With the embedded database it never opens a data directory another process holds: while a server owns
// it, the command goes through that server's loopback admin endpoint.

const USAGE = `usage:
  npm run admin -- create-partner --name NAME --tier extraction|storage|embed [--legacy-plan starter|professional|enterprise]
  npm run admin -- create-key --partner PARTNER_ID [--scopes scope1,scope2]
  npm run admin -- revoke-key --prefix KEY_PREFIX`;

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
    const value = m[2] ?? rest[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${m[1]} needs a value\n${USAGE}`);
    args[m[1]!] = value;
  }
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

async function direct(options: { databaseUrl: string } | { dataDir: string }, command: string, args: AdminArgs): Promise<object> {
  const lock = 'dataDir' in options ? acquireDataDirLock(options.dataDir, 'cli') : undefined;
  try {
    const database = await connect(options);
    try {
      await migrateToLatest(database.db);
      return await runAdminCommand(createPartnersService(database.db), command, args);
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
  if (config.databaseUrl) {
    result = await direct({ databaseUrl: config.databaseUrl }, command, args);
  } else {
    const holder = liveLockHolder(config.dataDir);
    if (holder?.owner === 'server' && holder.adminPort && holder.adminToken) {
      result = await viaServer(holder.adminPort, holder.adminToken, command, args);
    } else if (holder) {
      throw new DataDirLockedError(holder, config.dataDir);
    } else {
      result = await direct({ dataDir: config.dataDir }, command, args);
    }
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

run().catch((err) => {
  const message = err instanceof UsageError || err instanceof AppError || err instanceof DataDirLockedError
    ? err.message
    : err instanceof Error ? err.message : String(err);
  process.stderr.write(`${message}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
