import { InvalidInput } from '../../platform/errors.ts';
import type { GuardOptions } from '../../platform/net/outbound-guard.ts';
import { fetchUrl } from './fetch-url.ts';
import { createObjectReader, type GcsSourceConfig, type ObjectLocation, type S3SourceConfig } from './object-storage.ts';

// Where an adapter document comes from: a (pre-signed) https URL, or an object in S3 or Google Cloud Storage.

export type Source = { kind: 'url'; url: string } | ({ kind: 'object' } & ObjectLocation);

export interface SourceSettings {
  /** Loopback URLs (and http:// to them) are allowed: local development and tests only. */
  allowLoopback: boolean;
  /** Extra trusted CA certificates (PEM) for https sources: tests with a self-signed server. */
  ca?: string;
  /** Name resolution for the SSRF guard (tests). */
  resolve?: GuardOptions['resolve'];
  s3: S3SourceConfig;
  gcs: GcsSourceConfig;
  /** Default 25 MB, like uploads. */
  maxBytes?: number;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** The whole fetch; default 60 s. */
  timeoutMs?: number;
}

export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;
const MAX_URL_LENGTH = 8192;
const MAX_KEY_BYTES = 1024;
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const GCS_BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;

/** Exactly one of source_url and source_uri, checked for form (the URL's address is checked when fetched). */
export function parseSource(input: { sourceUrl?: string | null; sourceUri?: string | null }): Source {
  const url = input.sourceUrl ?? undefined;
  const uri = input.sourceUri ?? undefined;
  if (url !== undefined && uri !== undefined)
    throw new InvalidInput('give exactly one of source_url and source_uri, not both', {
      source_url: 'given with source_uri',
      source_uri: 'given with source_url',
    });
  if (url === undefined && uri === undefined)
    throw new InvalidInput('source_url or source_uri is required (exactly one)', { source_url: 'is required', source_uri: 'is required' });
  if (url !== undefined) {
    if (url.trim() === '') throw InvalidInput.field('source_url', 'must not be empty');
    if (url.length > MAX_URL_LENGTH) throw InvalidInput.field('source_url', `must be at most ${MAX_URL_LENGTH} characters`);
    if (/^\s*(s3|gs):\/\//i.test(url)) throw InvalidInput.field('source_url', 'must be an https:// URL; s3:// and gs:// URIs go in source_uri');
    return { kind: 'url', url: url.trim() };
  }
  const m = /^(s3|gs):\/\/([^/]+)\/(.+)$/.exec(uri!.trim());
  if (!m) throw InvalidInput.field('source_uri', 'must be s3://bucket/key or gs://bucket/key');
  const [scheme, bucket, key] = [m[1] as 's3' | 'gs', m[2]!, m[3]!];
  if (!(scheme === 's3' ? S3_BUCKET : GCS_BUCKET).test(bucket))
    throw InvalidInput.field('source_uri', `names an invalid ${scheme === 's3' ? 'S3' : 'Cloud Storage'} bucket "${bucket}"`);
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw InvalidInput.field('source_uri', `has an object key longer than ${MAX_KEY_BYTES} bytes`);
  return { kind: 'object', scheme, bucket, key };
}

/** Fetches sources under the size cap and timeouts: 400 for a refused address or an oversized document, 502 otherwise. */
export function createSourceFetcher(settings: SourceSettings) {
  const limits = {
    maxBytes: settings.maxBytes ?? MAX_DOCUMENT_BYTES,
    connectTimeoutMs: settings.connectTimeoutMs ?? 10_000,
    timeoutMs: settings.timeoutMs ?? 60_000,
  };
  const objects = createObjectReader({ s3: settings.s3, gcs: settings.gcs }, limits, 'source_uri');
  return {
    fetch(source: Source): Promise<Uint8Array> {
      if (source.kind === 'object') return objects.read(source);
      return fetchUrl(source.url, { ...limits, allowLoopback: settings.allowLoopback, ca: settings.ca, resolve: settings.resolve, field: 'source_url' });
    },
    close: () => objects.close(),
  };
}
export type SourceFetcher = ReturnType<typeof createSourceFetcher>;
