import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Storage } from '@google-cloud/storage';
import { Upstream } from '../../platform/errors.ts';
import { type FetchLimits, readCapped } from './fetch-url.ts';

// s3:// and gs:// sources, read with the service's own cloud credentials (the partner grants the bucket to us).
// Both clients are imported and built on first use only: cloud clients may look for credentials at the cloud
// metadata address, which must never happen unless such a source is really used.

export interface S3SourceConfig {
  /** An S3-compatible endpoint (MinIO, R2, a test server); default: AWS for the region. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Explicit credentials; otherwise the AWS SDK's default chain (environment, profile files, SSO, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export interface GcsSourceConfig {
  /** Another endpoint speaking the GCS JSON API; requests to it are not authenticated. */
  apiEndpoint?: string;
  projectId?: string;
}

export interface ObjectLocation {
  scheme: 's3' | 'gs';
  bucket: string;
  key: string;
}

const uri = (o: ObjectLocation) => `${o.scheme}://${o.bucket}/${o.key}`;

export function createObjectReader(config: { s3: S3SourceConfig; gcs: GcsSourceConfig }, limits: FetchLimits, field: string) {
  let s3: Promise<S3Client> | undefined;
  let gcs: Promise<Storage> | undefined;

  const s3Client = () =>
    (s3 ??= import('@aws-sdk/client-s3').then(
      ({ S3Client }) =>
        new S3Client({
          region: config.s3.region,
          ...(config.s3.endpoint ? { endpoint: config.s3.endpoint } : {}),
          forcePathStyle: config.s3.forcePathStyle,
          ...(config.s3.credentials ? { credentials: config.s3.credentials } : {}),
          maxAttempts: 2,
          requestHandler: { connectionTimeout: limits.connectTimeoutMs, requestTimeout: limits.timeoutMs },
        }),
    ));

  const gcsClient = () =>
    (gcs ??= import('@google-cloud/storage').then(
      ({ Storage }) =>
        new Storage({
          ...(config.gcs.apiEndpoint ? { apiEndpoint: config.gcs.apiEndpoint } : {}),
          ...(config.gcs.projectId ? { projectId: config.gcs.projectId } : {}),
          retryOptions: { autoRetry: true, maxRetries: 2 },
          timeout: limits.timeoutMs,
        }),
    ));

  async function readS3(o: ObjectLocation): Promise<Uint8Array> {
    const { GetObjectCommand } = await import('@aws-sdk/client-s3');
    const signal = AbortSignal.timeout(limits.timeoutMs);
    let body: Readable;
    let length: number | undefined;
    try {
      const res = await (await s3Client()).send(new GetObjectCommand({ Bucket: o.bucket, Key: o.key }), { abortSignal: signal });
      body = res.Body as Readable;
      length = res.ContentLength;
    } catch (err) {
      throw new Upstream(`${field} ${uri(o)} could not be fetched: ${s3Failure(err, signal)}`);
    }
    return readCapped(
      body,
      limits.maxBytes,
      field,
      (err) => new Upstream(`${field} ${uri(o)} could not be read to the end: ${s3Failure(err, signal)}`),
      length,
    );
  }

  async function readGcs(o: ObjectLocation): Promise<Uint8Array> {
    const file = (await gcsClient()).bucket(o.bucket).file(o.key);
    const stream = file.createReadStream();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stream.destroy(new Error('timed out'));
    }, limits.timeoutMs);
    try {
      return await readCapped(
        stream,
        limits.maxBytes,
        field,
        (err) => new Upstream(`${field} ${uri(o)} could not be fetched: ${timedOut ? `timed out after ${limits.timeoutMs} ms` : gcsFailure(err)}`),
        NaN,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    read: (o: ObjectLocation) => (o.scheme === 's3' ? readS3(o) : readGcs(o)),
    async close() {
      if (s3) (await s3.catch(() => undefined))?.destroy();
    },
  };
}

function s3Failure(err: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out';
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (e.name === 'CredentialsProviderError') return 'no AWS credentials are configured for the service';
  if (status === 404 || e.name === 'NoSuchKey' || e.name === 'NoSuchBucket') return `${e.name ?? 'NotFound'} (HTTP 404)`;
  if (status === 403) return `access denied (HTTP 403): grant the service read access to the object`;
  return status ? `${e.name ?? 'error'} (HTTP ${status})` : `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message ?? String(err)}`;
}

function gcsFailure(err: unknown): string {
  const e = err as { code?: number | string; message?: string };
  if (e.code === 404) return 'no such object (HTTP 404)';
  if (e.code === 403 || e.code === 401) return `access denied (HTTP ${e.code}): grant the service read access to the object`;
  return `${typeof e.code === 'number' ? `HTTP ${e.code}: ` : ''}${e.message ?? String(err)}`;
}
