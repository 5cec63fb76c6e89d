import { readFileSync } from 'node:fs';
import { createLocalEmbedder } from '../src/platform/embeddings/local.embedder.ts';
import { buildWordVectorCache } from '../src/platform/embeddings/word-vector-cache.build.ts';
import { wordVectorCacheExists, readWordVectorCache } from '../src/platform/embeddings/word-vector-cache.ts';
import { syntheticInvoiceDocuments } from '../eval/search/synthetic.ts';

const dir = '/tmp/emb';
if (!wordVectorCacheExists(dir)) await buildWordVectorCache(dir);
const emb = await createLocalEmbedder(dir);
const D = emb.dimensions;
const N = Number(process.env.N ?? 100000);
const docs = syntheticInvoiceDocuments(N, 't');
const t0 = Date.now();
const X = new Float32Array(N * D);
for (let i = 0; i < N; i += 1000) {
  const vs = await emb.embed(docs.slice(i, i + 1000).map((d) => d.text));
  vs.forEach((v, j) => X.set(v, (i + j) * D));
}
console.error('embedded', N, Date.now() - t0, 'ms');
const queries = JSON.parse(readFileSync('eval/dev-search-queries.json', 'utf8')) as { q: string }[];
const Q = await emb.embed(queries.map((q) => q.q));

function secondMoment(samples: Float32Array[]): Float64Array {
  const C = new Float64Array(D * D);
  for (const v of samples) for (let a = 0; a < D; a++) { const va = v[a]!; if (va === 0) continue; for (let b = a; b < D; b++) C[a * D + b] += va * v[b]!; }
  for (let a = 0; a < D; a++) for (let b = 0; b < a; b++) C[a * D + b] = C[b * D + a]!;
  return C;
}
// cyclic Jacobi eigen
function eigen(A0: Float64Array): { vals: number[]; vecs: Float64Array } {
  const A = Float64Array.from(A0); const V = new Float64Array(D * D); for (let i = 0; i < D; i++) V[i * D + i] = 1;
  for (let sweep = 0; sweep < 30; sweep++) {
    let off = 0; for (let p = 0; p < D; p++) for (let q = p + 1; q < D; q++) off += A[p * D + q]! ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < D; p++) for (let q = p + 1; q < D; q++) {
      const apq = A[p * D + q]!; if (Math.abs(apq) < 1e-15) continue;
      const theta = (A[q * D + q]! - A[p * D + p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < D; k++) { const akp = A[k * D + p]!, akq = A[k * D + q]!; A[k * D + p] = c * akp - s * akq; A[k * D + q] = s * akp + c * akq; }
      for (let k = 0; k < D; k++) { const apk = A[p * D + k]!, aqk = A[q * D + k]!; A[p * D + k] = c * apk - s * aqk; A[q * D + k] = s * apk + c * aqk; }
      for (let k = 0; k < D; k++) { const vkp = V[k * D + p]!, vkq = V[k * D + q]!; V[k * D + p] = c * vkp - s * vkq; V[k * D + q] = s * vkp + c * vkq; }
    }
  }
  const vals = Array.from({ length: D }, (_, i) => A[i * D + i]!);
  return { vals, vecs: V };
}
function basis(samples: Float32Array[]): Float32Array[] {
  const t = Date.now();
  const { vals, vecs } = eigen(secondMoment(samples));
  const order = vals.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0]);
  const total = vals.reduce((s, v) => s + v, 0);
  let acc = 0; const cum = order.map(([v]) => (acc += v) / total);
  console.error('eigen', Date.now() - t, 'ms; variance in 32/64/96/128:', [32, 64, 96, 128].map((k) => cum[k - 1]!.toFixed(3)).join(' '));
  return order.map(([, i]) => { const b = new Float32Array(D); for (let k = 0; k < D; k++) b[k] = vecs[k * D + i]!; return b; });
}
function project(v: Float32Array, B: Float32Array[], k: number): Float32Array { const o = new Float32Array(k); for (let j = 0; j < k; j++) { let s = 0; const b = B[j]!; for (let d = 0; d < D; d++) s += b[d]! * v[d]!; o[j] = s; } return o; }

const wv = readWordVectorCache(dir);
const vocabTexts = wv.words.slice(0, 30000);
const vocabSamples = await emb.embed(vocabTexts);
// pseudo-documents: 6-word texts drawn Zipf-like from the top 30k words
let seed = 7; const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const zipf = () => Math.min(29999, Math.floor(Math.exp(rnd() * Math.log(30000))));
const pseudo = await emb.embed(Array.from({ length: 20000 }, () => Array.from({ length: 6 }, () => wv.words[zipf()]).join(' ')));
const other = await emb.embed(syntheticInvoiceDocuments(20000, 't', 99).map((d) => d.text));
const ident = Array.from({ length: D }, (_, i) => { const b = new Float32Array(D); b[i] = 1; return b; });
const fits: Record<string, Float32Array[]> = { identity: ident, vocab: basis(vocabSamples), pseudo: basis(pseudo), synthOtherSeed: basis(other) };

function topk(scores: Float32Array, k: number): number[] { const idx = Array.from({ length: scores.length }, (_, i) => i); idx.sort((a, b) => scores[b]! - scores[a]!); return idx.slice(0, k); }
const exact = Q.map((q) => { const s = new Float32Array(N); for (let i = 0; i < N; i++) { let d = 0; for (let j = 0; j < D; j++) d += X[i * D + j]! * q[j]!; s[i] = d; } return new Set(topk(s, 10)); });
for (const [name, B] of Object.entries(fits)) {
  for (const k of [48, 64, 96, 128]) {
    const P = new Float32Array(N * k);
    for (let i = 0; i < N; i++) P.set(project(X.subarray(i * D, (i + 1) * D), B, k), i * k);
    const line: string[] = [];
    for (const C of [10, 50, 100, 200, 400]) {
      let hit = 0;
      Q.forEach((q, qi) => { const pq = project(q, B, k); const s = new Float32Array(N); for (let i = 0; i < N; i++) { let d = 0; for (let j = 0; j < k; j++) d += P[i * k + j]! * pq[j]!; s[i] = d; } for (const i of topk(s, C)) if (exact[qi]!.has(i)) hit++; });
      line.push(`C${C}:${((100 * hit) / (10 * Q.length)).toFixed(1)}`);
    }
    console.log(name.padEnd(15), `k${k}`, line.join(' '));
  }
}
