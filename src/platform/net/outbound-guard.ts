import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { InvalidInput } from '../errors.ts';

// SSRF guard for every URL the service calls on someone else's behalf (webhooks, the adapter's source_url).
// Addresses are checked after DNS resolution, and callers connect to exactly the addresses checked here
// (see `pinnedLookup`), so a name cannot resolve to a public address for the check and a private one after.

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface PublicUrl {
  url: URL;
  addresses: ResolvedAddress[];
}

export interface GuardOptions {
  /** Loopback targets (and http:// to them) are allowed: local development and tests only. */
  allowLoopback: boolean;
  /** Name resolution (tests may replace it); default: the system resolver, every address. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** The input field named in error messages. */
  field?: string;
}

const RESOLVE_TIMEOUT_MS = 5000;

/** The URL, if it is https (or http to loopback when allowed) and every address it resolves to is public. */
export async function assertPublicUrl(raw: string, options: GuardOptions): Promise<PublicUrl> {
  const field = options.field ?? 'url';
  const refuse = (problem: string) => InvalidInput.field(field, problem);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(raw)?.[1];
    if (port !== undefined && Number(port) > 65535) throw refuse(`has port ${port}; a port is a number from 0 to 65535`);
    throw refuse(`must be an absolute URL (got "${raw.slice(0, 100)}")`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowLoopback)) {
    throw refuse(`must be an https:// URL (got ${url.protocol}//)`);
  }
  if (url.username || url.password) throw refuse('must not contain credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) as 4 | 6 }] : await resolveHost(host, options.resolve, refuse);
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'loopback' && options.allowLoopback) continue;
    if (kind !== 'public') {
      const what = `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`;
      throw refuse(`must point to a public address: ${url.hostname} is ${address === host ? what : `${address}, ${what}`}`);
    }
  }
  if (url.protocol === 'http:' && !addresses.every((a) => classifyAddress(a.address) === 'loopback')) {
    throw refuse('must be an https:// URL (http:// only to loopback in development)');
  }
  return { url, addresses };
}

async function resolveHost(host: string, resolve: GuardOptions['resolve'], refuse: (problem: string) => InvalidInput): Promise<ResolvedAddress[]> {
  const run = resolve ?? (async (h: string) => (await lookup(h, { all: true, verbatim: true })) as ResolvedAddress[]);
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), RESOLVE_TIMEOUT_MS);
    });
    const found = await Promise.race([run(host), timeout]);
    if (found.length === 0) throw new Error('no addresses');
    return found;
  } catch (err) {
    throw refuse(`host ${host} could not be resolved (${(err as { code?: string }).code ?? (err as Error).message})`);
  } finally {
    clearTimeout(timer);
  }
}

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

const V4_RANGES: Array<[string, number, Exclude<AddressKind, 'public'>]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT (also Alibaba's metadata address)
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // includes the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255
];

/** What kind of address this is; only `public` may be called (and `loopback` in development). */
export function classifyAddress(address: string): AddressKind {
  const family = isIP(address);
  if (family === 4) return classifyV4(v4ToInt(address));
  if (family === 6) return classifyV6(address);
  return 'reserved';
}

function classifyV4(n: number): AddressKind {
  for (const [base, bits, kind] of V4_RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === (v4ToInt(base) & mask) >>> 0) return kind;
  }
  return 'public';
}

function classifyV6(address: string): AddressKind {
  const w = v6Words(address.replace(/%.*$/, ''));
  const embeddedV4 = ((w[6]! << 16) | w[7]!) >>> 0;
  const zeroPrefix = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(8)) return 'unspecified';
  if (zeroPrefix(7) && w[7] === 1) return 'loopback';
  if (zeroPrefix(5) && w[5] === 0xffff) return classifyV4(embeddedV4); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroPrefix(6)) return 'reserved'; // IPv4-compatible (deprecated)
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return classifyV4(embeddedV4); // NAT64
  if (w[0] === 0x64 && w[1] === 0xff9b) return 'private'; // local-use NAT64 64:ff9b:1::/48
  if (w[0] === 0x2002) return classifyV4(((w[1]! << 16) | w[2]!) >>> 0); // 6to4
  if (w[0] === 0x2001 && w[1] === 0) return 'reserved'; // Teredo
  if (w[0] === 0x2001 && w[1] === 0xdb8) return 'reserved'; // documentation
  if (w[0] === 0x100 && w.slice(1, 4).every((x) => x === 0)) return 'reserved'; // discard-only 100::/64
  if ((w[0]! & 0xfe00) === 0xfc00) return 'private'; // unique local fc00::/7 (incl. AWS fd00:ec2::254)
  if ((w[0]! & 0xffc0) === 0xfe80) return 'link-local';
  if ((w[0]! & 0xffc0) === 0xfec0) return 'private'; // deprecated site-local
  if ((w[0]! & 0xff00) === 0xff00) return 'multicast';
  return 'public';
}

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}

/** The eight 16-bit words of an IPv6 address (accepts `::` and a dotted IPv4 tail). */
function v6Words(address: string): number[] {
  let text = address.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const n = v4ToInt(tail[1]!);
    text = `${text.slice(0, tail.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const fill = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((h) => parseInt(h, 16));
}

/**
 * A `lookup` for node:http(s) that connects only to the addresses checked by `assertPublicUrl` (no second
 * resolution between the check and the connection).
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (
    _hostname: string,
    options: { all?: boolean } | number,
    callback: (err: Error | null, address: string | ResolvedAddress[], family?: number) => void,
  ): void => {
    if (typeof options === 'object' && options.all) callback(null, [...addresses]);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}
