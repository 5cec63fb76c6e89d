import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

// A loopback server speaking the part of the Google Cloud Storage JSON API our BlobStore uses
// (multipart upload, media download, delete), so the real @google-cloud/storage client is exercised.

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32c(bytes: Buffer): string {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC32C_TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8);
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}

export interface FakeGcs {
  endpoint: string;
  objects: Map<string, { bytes: Buffer; contentType: string }>;
  requests: Array<{ method: string; url: string }>;
  /** Answer the next N requests with this status (to test failures). */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

export async function startFakeGcs(bucket: string): Promise<FakeGcs> {
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const requests: Array<{ method: string; url: string }> = [];
  let failures: { status: number; left: number } | undefined;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? '', url: url.pathname + url.search });
    const body = await readBody(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (failures && failures.left > 0) {
      failures.left--;
      return json(failures.status, { error: { code: failures.status, message: 'injected failure' } });
    }
    const upload = new RegExp(`^/upload/storage/v1/b/${bucket}/o$`).exec(url.pathname);
    const object = new RegExp(`^/storage/v1/b/${bucket}/o/(.+)$`).exec(url.pathname);
    if (req.method === 'POST' && upload && url.searchParams.get('uploadType') === 'multipart') {
      const boundary = /boundary="?([^";]+)"?/.exec(req.headers['content-type'] ?? '')?.[1];
      if (!boundary) return json(400, { error: { code: 400, message: 'no boundary' } });
      const [metaPart, mediaPart] = multipartParts(body, boundary);
      const meta = JSON.parse(metaPart!.body.toString('utf8')) as { name?: string; contentType?: string };
      const name = meta.name ?? url.searchParams.get('name') ?? '';
      const contentType = meta.contentType ?? mediaPart!.headers['content-type'] ?? 'application/octet-stream';
      objects.set(name, { bytes: mediaPart!.body, contentType });
      return json(200, resource(bucket, name, mediaPart!.body, contentType));
    }
    if (object) {
      const name = decodeURIComponent(object[1]!);
      const stored = objects.get(name);
      if (req.method === 'DELETE') {
        if (!stored) return json(404, { error: { code: 404, message: `No such object: ${bucket}/${name}` } });
        objects.delete(name);
        return res.writeHead(204).end();
      }
      if (req.method === 'GET') {
        if (!stored) return json(404, { error: { code: 404, message: `No such object: ${bucket}/${name}` } });
        if (url.searchParams.get('alt') === 'media') {
          return res
            .writeHead(200, {
              'content-type': stored.contentType,
              'content-length': stored.bytes.length,
              'x-goog-hash': `crc32c=${crc32c(stored.bytes)},md5=${createHash('md5').update(stored.bytes).digest('base64')}`,
              'x-goog-stored-content-encoding': 'identity',
            })
            .end(stored.bytes);
        }
        return json(200, resource(bucket, name, stored.bytes, stored.contentType));
      }
    }
    json(404, { error: { code: 404, message: `fake GCS: no route for ${req.method} ${url.pathname}` } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    failNext: (status, times = 1) => (failures = { status, left: times }),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function resource(bucket: string, name: string, bytes: Buffer, contentType: string) {
  return {
    kind: 'storage#object',
    id: `${bucket}/${name}/1`,
    bucket,
    name,
    generation: '1',
    size: String(bytes.length),
    contentType,
    crc32c: crc32c(bytes),
    md5Hash: createHash('md5').update(bytes).digest('base64'),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function multipartParts(body: Buffer, boundary: string): Array<{ headers: Record<string, string>; body: Buffer }> {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Array<{ headers: Record<string, string>; body: Buffer }> = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const chunk = body.subarray(start + delimiter.length + 2, next - 2); // skip CRLF after delimiter and before next
    const split = chunk.indexOf('\r\n\r\n');
    const headers = Object.fromEntries(
      chunk
        .subarray(0, split)
        .toString('utf8')
        .split('\r\n')
        .filter(Boolean)
        .map((line) => {
          const i = line.indexOf(':');
          return [line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim()];
        }),
    );
    parts.push({ headers, body: chunk.subarray(split + 4) });
    start = next;
  }
  return parts;
}
