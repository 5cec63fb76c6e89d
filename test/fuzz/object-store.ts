import { createServer, type Server } from 'node:http';

// A loopback stand-in for S3 (path-style) and the Google Cloud Storage JSON API, for the adapter's s3:// and gs://
// sources. An unreachable store is the adapter's documented 502, which would hide what the fuzzer is after (the
// service's own 5xx), so every GET is answered: a key containing "pdf" gets the seeded invoice, any other key some
// bytes that are not a document. Nothing leaves loopback.

export interface ObjectStore {
  endpoint: string;
  requests(): number;
  close(): Promise<void>;
}

export async function startObjectStore(invoicePdf: Buffer): Promise<ObjectStore> {
  let count = 0;
  const server: Server = createServer((req, res) => {
    count++;
    req.resume();
    const path = (req.url ?? '/').split('?')[0]!;
    const bytes = /pdf/i.test(path) ? invoicePdf : Buffer.from(`not a document: ${path.slice(0, 200)}`);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
