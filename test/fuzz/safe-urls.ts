import fc from 'fast-check';
import { Huge } from './wire.ts';

// Nothing the fuzzer sends may make the server reach past loopback — not even a DNS query. A URL the server might
// fetch (webhook url, adapter source_url) or keep (branding logoUrl) therefore comes only from this list: literal
// loopback, private, link-local, unspecified and otherwise refused addresses in their many spellings, userinfo
// tricks among them, and forms that do not parse. The only host name is `localhost`, which /etc/hosts answers.
// Mutations keep the host: they append to the path or wrap the whole URL in a non-string.

const HOSTILE_URLS = [
  'https://127.0.0.1/invoice.pdf',
  'https://127.0.0.1:9/invoice.pdf',
  'http://127.0.0.1:9/invoice.pdf',
  'https://[::1]/invoice.pdf',
  'https://[::ffff:127.0.0.1]/invoice.pdf',
  'https://[::ffff:7f00:1]/x',
  'https://[::]/x',
  'https://[fe80::1]/x',
  'https://[fd00::1]/x',
  'https://localhost/invoice.pdf',
  'https://LOCALHOST:443/invoice.pdf',
  'https://10.0.0.5/invoice.pdf',
  'https://172.16.0.1/x',
  'https://192.168.1.1/x',
  'https://100.64.0.1/x',
  'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'https://0.0.0.0/x',
  'https://0/x',
  'https://2130706433/invoice.pdf',
  'https://0x7f000001/invoice.pdf',
  'https://0x7f.0x0.0x0.0x1/invoice.pdf',
  'https://0177.0.0.1/invoice.pdf',
  'https://127.1/invoice.pdf',
  'https://%31%32%37.0.0.1/invoice.pdf',
  'https://224.0.0.1/x',
  'https://255.255.255.255/x',
  'https://user:secret@127.0.0.1/invoice.pdf',
  'https://127.0.0.1@10.0.0.1/invoice.pdf',
  'https://localhost#@127.0.0.1/x',
  'https://127.0.0.1\\@10.0.0.1/x',
  'https://127.0.0.1:0/x',
  'https://127.0.0.1:65536/x',
  'https://[::1/x',
  'https://',
  '//127.0.0.1/x',
  '127.0.0.1/invoice.pdf',
  'ftp://127.0.0.1/invoice.pdf',
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_INFO',
  'javascript:alert(1)',
  'data:application/pdf;base64,JVBERi0xLjQK',
  'data:image/png;base64,iVBORw0KGgo=',
  'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
  'https://127.0.0.1/x?y=%00&z=\u0000',
  'https://127.0.0.1/x#fragment',
  ' https://127.0.0.1/x ',
  '',
] as const;

/** Object-store locations: the service reaches them only through the loopback stub behind S3_ENDPOINT/GCS_API_ENDPOINT. */
const OBJECT_URIS = [
  's3://fuzz-bucket/invoice.pdf',
  's3://fuzz-bucket/not-a-document.bin',
  'gs://fuzz-bucket/invoice.pdf',
  'gs://fuzz-bucket/dir/with spaces/x.png',
  's3://Bad_Bucket/x',
  's3://ab/x',
  's3://fuzz-bucket/',
  'gs://fuzz-bucket',
  's3:///key',
  'S3://fuzz-bucket/x.pdf',
  's4://fuzz-bucket/x.pdf',
  'gs://fuzz-bucket/../../etc/passwd',
  's3://fuzz-bucket/%00.pdf',
] as const;

/** Input names whose value the server may fetch or keep as a link. */
export function isUrlInput(name: string): boolean {
  return /(^|_)(url|uri)$|Url$|Uri$/i.test(name);
}

/** A URL for `name` that can only be refused, unreachable or served by the loopback stub. */
export function safeUrl(name: string): fc.Arbitrary<unknown> {
  const pool = /uri$/i.test(name) ? OBJECT_URIS : HOSTILE_URLS;
  const base = fc.constantFrom<string>(...pool);
  // Only URLs with a host and a path are grown, and only at the end of the path, so the host never changes.
  const withPath = fc.constantFrom<string>(...pool.filter((u) => /^[a-z0-9]+:\/\/[^/]+\/./i.test(u)));
  return fc.oneof(
    { weight: 6, arbitrary: base },
    {
      weight: 2,
      arbitrary: fc.tuple(withPath, fc.constantFrom('\u0000', '%00', '\u001b[31m', '\u202e', '..%2f..%2f', '@x', '?a=\u0007')).map(([u, tail]) => u + tail),
    },
    { weight: 1, arbitrary: withPath.map((u) => new Huge(`${u}a/`, 20_000)) },
    { weight: 1, arbitrary: base.map((u) => [u]) },
  );
}
