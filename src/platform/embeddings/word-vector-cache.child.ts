// Child process of buildWordVectorCache(): parsing the 307 MB JSON peaks at ~1 GB RSS and leaves ~400 MB behind
// even after GC, so it happens here and the memory goes back to the OS when this process exits.

import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeWordVectors } from './word-vector-cache.ts';
import { selectWordVectors, type WinkEmbeddings } from './word-vector-select.ts';

export interface BuildRequest {
  source: string;
  file: string;
  maxWords: number;
}

export type BuildMessage = { type: 'progress'; done: number; total: number } | { type: 'done'; words: number; bytes: number };

// One JSON message per stdout line.
const send = (m: BuildMessage) => process.stdout.write(`${JSON.stringify(m)}\n`);

const req = JSON.parse(process.argv[2] ?? '{}') as BuildRequest;
const src = JSON.parse(readFileSync(req.source, 'utf8')) as WinkEmbeddings;
const wv = selectWordVectors(src, req.maxWords, (done, total) => send({ type: 'progress', done, total }));
const bytes = encodeWordVectors(wv);
mkdirSync(path.dirname(req.file), { recursive: true });
const tmp = `${req.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
try {
  writeFileSync(tmp, bytes);
  renameSync(tmp, req.file);
} catch (err) {
  rmSync(tmp, { force: true });
  throw err;
}
send({ type: 'done', words: wv.words.length, bytes: bytes.length });
