import type { Kysely } from 'kysely';
import { liveKeyHashes } from '../../modules/partners/api-keys.queries.ts';
import type { DB } from '../db/types.ts';
import { liveSessionHashes } from '../../modules/embed/users.queries.ts';
import { hashApiKey } from './api-key.ts';

/** A credential an open connection was authenticated with: an API key or a browser session's cookie token. */
export interface Credential {
  kind: 'key' | 'session';
  secret: string;
}

/**
 * Which of these credentials are still live (keys not revoked, sessions not expired), in two statements whatever
 * their number. Both tables keep the SHA-256 of the secret, never the secret. Each distinct secret is hashed once:
 * the open sockets are rechecked together every AUTH_RECHECK_MS, and 5,000 sockets of 50 keys hashed one by one held
 * the event loop 7–21 ms each time (5,000 hashes timed alone), which a server busy with a fan-out then needs ~10× as
 * long to catch up on (docs/decisions.md, "Live events at scale").
 */
export function createCredentialCheck(db: Kysely<DB>, now: () => Date = () => new Date()) {
  return async function stillLive(credentials: readonly Credential[]): Promise<Set<Credential>> {
    const hashes = new Map<string, string>();
    const hashOf = (secret: string) => {
      let hash = hashes.get(secret);
      if (hash === undefined) hashes.set(secret, (hash = hashApiKey(secret)));
      return hash;
    };
    const hashed = credentials.map((c) => ({ credential: c, hash: hashOf(c.secret) }));
    const [keys, sessions] = await Promise.all([
      liveKeyHashes(db, [...new Set(hashed.filter((h) => h.credential.kind === 'key').map((h) => h.hash))]),
      liveSessionHashes(db, [...new Set(hashed.filter((h) => h.credential.kind === 'session').map((h) => h.hash))], now()),
    ]);
    const live = new Set([...keys, ...sessions]);
    return new Set(hashed.filter((h) => live.has(h.hash)).map((h) => h.credential));
  };
}
export type CredentialCheck = ReturnType<typeof createCredentialCheck>;
