import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/types.ts';
import { InvalidInput } from '../../platform/errors.ts';
import type { PartnersService } from '../../modules/partners/partners.service.ts';
import type { SearchService } from '../../modules/search/search.service.ts';
import { type DemoServices, seedDemo } from './demo-seed.ts';

export const ADMIN_COMMANDS = ['create-partner', 'create-key', 'revoke-key', 'reindex', 'build-embeddings', 'seed', 'set-price'] as const;
export type AdminCommand = (typeof ADMIN_COMMANDS)[number];
export type AdminArgs = Record<string, string | undefined>;

export function isAdminCommand(value: string): value is AdminCommand {
  return (ADMIN_COMMANDS as readonly string[]).includes(value);
}

export interface AdminDeps {
  partners: PartnersService;
  /** Only `reindex` needs it (the CLI opens an embedder only for that command). */
  search?: SearchService;
  onProgress?: (done: number, total: number) => void;
  /** Only `seed --demo` needs them (the services it enters the demo data through, and the database). */
  seed?: { services: DemoServices; db: Kysely<DB> };
}

/**
 * The admin commands that touch the database, run the same way by the CLI (own database) and the server's
 * loopback endpoint. (`build-embeddings` only writes a file: the CLI runs it itself.)
 */
export async function runAdminCommand(deps: AdminDeps, command: string, args: AdminArgs): Promise<object> {
  const { partners } = deps;
  switch (command) {
    case 'create-partner':
      return partners.createPartner({
        name: required(args, 'name'),
        tier: required(args, 'tier'),
        legacyPlan: args['legacy-plan'] ?? null,
      });
    case 'create-key':
      return partners.createApiKey({
        partnerId: required(args, 'partner'),
        scopes:
          args.scopes === undefined
            ? undefined
            : args.scopes
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
      });
    case 'revoke-key':
      return partners.revokeApiKey(required(args, 'prefix'));
    case 'set-price': {
      const raw = required(args, 'price');
      const price = raw === 'none' ? null : /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
      return partners.setPrice({ partnerId: required(args, 'partner'), price });
    }
    case 'reindex':
      if (!deps.search) throw new Error('reindex needs the search service');
      return deps.search.reindex(deps.onProgress);
    case 'seed':
      if (args.demo !== 'true') throw new InvalidInput('seed needs --demo (the only data set there is)');
      if (!deps.seed) throw new Error('seed needs the scheduling and inventory services');
      return seedDemo(deps.seed.services, deps.seed.db);
    default:
      throw new InvalidInput(`unknown command "${command}"; commands: ${ADMIN_COMMANDS.join(', ')}`);
  }
}

function required(args: AdminArgs, name: string): string {
  const value = args[name];
  if (value === undefined || value === '') throw new InvalidInput(`--${name} is required`);
  return value;
}
