import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { PublicUrl } from '../../platform/net/outbound-guard.ts';

// Keep-alive connections for webhook deliveries: a TCP (and TLS) handshake per delivery capped one endpoint at
// ~700 deliveries/s and cost the receiver a connection per event. One agent per checked target — origin plus the
// addresses the SSRF guard approved — so a pooled socket is only ever reused for the same approved address; when
// DNS moves, the key changes and the old agent ages out. (undici's Pool would do the same; it is not a dependency.)

/** Idle sockets are closed after this: below the 5 s keep-alive of Node servers, so we close before they do. */
const IDLE_MS = 4000;
/**
 * Connections to one target at once, all kept while idle: a claimed batch (50) is sent in parallel, and closing
 * what went beyond the idle limit after every batch meant a new handshake for most of the next one. With 32, 18 of
 * a batch's 50 waited for a second round trip: the events bench's webhooks went from 984-1,420 to 1,386-1,437/s.
 */
const MAX_SOCKETS = 64;
/** Distinct targets kept; the least recently used beyond this is closed. */
const MAX_TARGETS = 256;

export function createConnectionPool() {
  const agents = new Map<string, http.Agent>();
  return {
    /** The agent for this checked target (and CA bundle). */
    agentFor(target: PublicUrl, ca?: string): http.Agent {
      const key = JSON.stringify([
        target.url.protocol,
        target.url.host,
        target.addresses.map((a) => a.address).sort(),
        ca ? createHash('sha256').update(ca).digest('hex') : null,
      ]);
      let agent = agents.get(key);
      if (agent) agents.delete(key);
      else {
        const options = { keepAlive: true, timeout: IDLE_MS, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_SOCKETS, scheduling: 'lifo' as const };
        agent = target.url.protocol === 'https:' ? new https.Agent({ ...options, ...(ca ? { ca } : {}) }) : new http.Agent(options);
      }
      agents.set(key, agent); // most recently used last
      if (agents.size > MAX_TARGETS) {
        const [oldest, old] = agents.entries().next().value!;
        agents.delete(oldest);
        old.destroy();
      }
      return agent;
    },
    /** Closes every pooled connection (shutdown). */
    destroy(): void {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}
export type ConnectionPool = ReturnType<typeof createConnectionPool>;
