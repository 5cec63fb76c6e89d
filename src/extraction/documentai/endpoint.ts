// Where Document AI requests go, and the processors' resource names. Pure: config.ts validates with it.

export interface DocumentAiEndpoint {
  host: string;
  port: number;
  protocol: 'https' | 'http';
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * DOCUMENTAI_API_ENDPOINT: `eu-documentai.googleapis.com`, `host:port`, `https://host[:port]`, or
 * `http://127.0.0.1:port` — plain http only to a loopback address (a local test server), and then unauthenticated.
 * Default: the location's regional endpoint, `{location}-documentai.googleapis.com`.
 */
export function parseDocumentAiEndpoint(raw: string | undefined, location: string): DocumentAiEndpoint {
  if (!raw) return { host: `${location}-documentai.googleapis.com`, port: 443, protocol: 'https' };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new Error(`"${raw}" is not a host name, host:port or URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`"${raw}": only https:// (or http:// to a loopback address)`);
  if (url.pathname !== '/' || url.search || url.hash || url.username) throw new Error(`"${raw}": give the host (and port) only, no path`);
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new Error(`"${raw}": plain http is only allowed to a loopback address (a local test server); use https`);
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** The processor's resource name: a bare id, or a full `projects/…/processors/…[/processorVersions/…]` name as given. */
export function processorName(project: string, location: string, processor: string): string {
  return processor.startsWith('projects/') ? processor : `projects/${project}/locations/${location}/processors/${processor}`;
}

export const PROCESSOR = /^(?:[A-Za-z0-9_-]+|projects\/[^/\s]+\/locations\/[^/\s]+\/processors\/[A-Za-z0-9_-]+(?:\/processorVersions\/[A-Za-z0-9_.-]+)?)$/;
