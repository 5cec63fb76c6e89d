// Search relevance + latency evaluation:
//
//   npm run eval:search -- <dataset dir> [--queries <file>] [--json] [--pages <dir>] [--synthetic [N] [--keep-data <dir>]]
//
// 1. Builds the services as the server does, on a fresh in-memory PGlite (pgvector HNSW), the configured embedder
//    (openEmbedder; the local word-vector cache in DATA_DIR/embeddings or EMBEDDINGS_CACHE_DIR, built if missing)
//    and a local blob store in a temporary directory; creates one partner and authenticates its key.
// 2. Uploads every document of <dir>/manifest.json through services.uploads (real engine, real recording and
//    indexing) and remembers which records each file became (an invoice PDF may become several invoices).
// 3. Runs every query of the queries file (default eval/dev-search-queries.json: [{ q, relevant: [file…] }]) with
//    limit 10 and scores it: reciprocal rank of the first relevant file (0 when none is in the top 10) and recall@10
//    (distinct relevant files in the top 10 / relevant files); totals are MRR@10 and mean recall@10.
//    Scoring choice: a vendor hit keeps its rank but is never relevant (queries describe documents, not vendors),
//    and the table shows how many vendor hits each top 10 held.
// 4. Latency: every query once as a warm-up, then 5 rounds; p50/p95 of services.search.search (embedding + SQL),
//    and of the query embedding alone.
// 5. --synthetic N (10000 when no number follows): adds N generated invoice documents (eval/search/synthetic.ts)
//    to the same tenant through services.search.indexDocuments in batches of 500 (the HNSW index is live, as in
//    production), reports the build time and PGlite sizes, then measures relevance and latency again. A synthetic
//    hit is never relevant, even when it is on topic (the vocabulary includes coffee, office chairs, drills…).
//    The search index analyzes itself every 1,000 rows written (embedded PGlite runs no autovacuum), so the planner
//    uses the HNSW index as a server would; each stage also reports how much of the exact top 10 the served search
//    returned (exact = the same query with index scans off; a served row tied with the 10th counts, see annRecall).
//    Then the database is written to a temporary data directory and opened as the server opens it (the database on
//    its own thread, shared_buffers by PGLITE_SHARED_BUFFERS: `auto`, sized by the data), and measured once more.
// 6. --json prints the whole report as JSON instead of the tables, plus the indexed text of every file a query names
//    as relevant (to see why a file is missed). Progress goes to stderr.
//
// --keep-data <dir> writes the server-path stage's data directory there and keeps it (to tune the index on it).
//
// Speed-up for tuning: --pages <dir> takes the reads saved by `npm run dump-pages -- <dataset> <dir>`
// instead of running OCR (eval/search/cached-reader.ts); understanding, recording and indexing still run.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pgvector from 'pgvector';
import { connect, createPglite, type Database } from '../../src/platform/db/connect.ts';
import { openPglite } from '../../src/platform/db/pglite-open.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import type { Principal } from '../../src/platform/auth/authenticate.ts';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';
import { createDocumentReader } from '../../src/extraction/reader.ts';
import type { DocumentKind } from '../../src/extraction/types.ts';
import { UploadedFile } from '../../src/platform/lib/uploaded-file.ts';
import { createCachedPagesReader } from './cached-reader.ts';
import { meanOf, percentile, type QueryScore, type ResultTarget, scoreQuery } from './metrics.ts';
import { syntheticInvoiceDocuments } from './synthetic.ts';
import { compose, type Composed } from '../../src/app/compose.ts';
import type { Services } from '../../src/app/services.ts';
import { createLocalBlobStore } from '../../src/platform/storage/local-blob-store.ts';

const DEFAULT_QUERIES = fileURLToPath(new URL('../dev-search-queries.json', import.meta.url));
const K = 10;
const LATENCY_ROUNDS = 5;
const SYNTHETIC_BATCH = 500;
const UPLOAD_CONCURRENCY = 4;

interface Args {
  dir: string;
  queries: string;
  json: boolean;
  pages: string | undefined;
  /** Where the server-path stage writes its data directory, kept afterwards (default: a temporary one, removed). */
  keepData: string | undefined;
  synthetic: number | undefined;
}
interface ManifestEntry {
  file: string;
  kind: DocumentKind;
}
interface Judgement {
  q: string;
  relevant: string[];
}
interface LatencyStats {
  samples: number;
  p50: number;
  p95: number;
  max: number;
  embedP50: number;
  embedP95: number;
}
interface StageReport {
  indexedRows: number;
  mrr: number;
  /** Mean share of the exact (no index) top 10 that the served, HNSW-backed search returned. */
  annAgreement: number;
  meanRecall: number;
  queries: QueryScore[];
  latencyMs: LatencyStats;
  sizes: { databaseBytes: number; searchTableBytes: number; hnswIndexBytes: number };
}

const USAGE = 'usage: npm run eval:search -- <dataset dir> [--queries <file>] [--json] [--pages <dir>] [--synthetic [N] [--keep-data <dir>]]';

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const args: Args = { dir: '', queries: DEFAULT_QUERIES, json: false, pages: undefined, synthetic: undefined, keepData: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (!v || v.startsWith('--')) throw new UsageError(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--json') args.json = true;
    else if (a === '--queries') args.queries = value();
    else if (a === '--pages') args.pages = value();
    else if (a === '--keep-data') args.keepData = value();
    else if (a === '--synthetic') {
      const next = argv[i + 1];
      args.synthetic = next !== undefined && /^\d+$/.test(next) ? Number(argv[++i]) : 10_000;
    } else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}\n${USAGE}`);
    else if (!args.dir) args.dir = a;
    else throw new UsageError(`unexpected argument ${a}\n${USAGE}`);
  }
  if (!args.dir) throw new UsageError(USAGE);
  if (args.keepData && !args.synthetic) throw new UsageError(`--keep-data goes with --synthetic\n${USAGE}`);
  return args;
}

const progress = (line: string) => process.stderr.write(`${line}\n`);
const describe = (obj: object) => JSON.stringify(obj, (_k, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v));
const log = {
  info: (obj: object, msg?: string) => progress(`${msg} ${describe(obj)}`),
  warn: (obj: object, msg?: string) => progress(`WARN ${msg} ${describe(obj)}`),
  error: (obj: object, msg?: string) => progress(`ERROR ${msg} ${describe(obj)}`),
};

/** Uploads every manifest entry through the real upload path; returns record id → file, plus failures. */
async function uploadDataset(services: Services, principal: Principal, dir: string, manifest: ManifestEntry[]) {
  const fileOf = new Map<string, string>();
  const failures: string[] = [];
  const counts = { invoices: 0, receipts: 0 };
  let done = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < manifest.length) {
      const entry = manifest[next++]!;
      const file = new UploadedFile(entry.file, null, await readFile(path.join(dir, entry.file)));
      try {
        if (entry.kind === 'invoice') {
          const invoices = await services.uploads.uploadInvoice(principal, { file });
          for (const inv of invoices) {
            fileOf.set(inv.id, entry.file);
            if (inv.status === 'processed') counts.invoices++;
            else failures.push(`${entry.file}: invoice ${inv.status}${inv.error ? `: ${inv.error}` : ''}`);
          }
        } else {
          const receipt = await services.uploads.uploadReceipt(principal, { file });
          fileOf.set(receipt.id, entry.file);
          counts.receipts++;
        }
      } catch (err) {
        failures.push(`${entry.file}: ${(err as Error).message}`);
      }
      done++;
      progress(`[${done}/${manifest.length}] ${entry.file} (${Math.round((performance.now() - started) / 1000)} s)`);
    }
  };
  await Promise.all(Array.from({ length: UPLOAD_CONCURRENCY }, worker));
  return { fileOf, failures, counts, ms: performance.now() - started };
}

async function sizes(database: Database) {
  const { rows } = await sql<{ db: string; tbl: string; hnsw: string }>`
    select pg_database_size(current_database()) as db, pg_total_relation_size('search_documents') as tbl,
           (select sum(pg_relation_size(indexrelid)) from pg_index join pg_class on pg_class.oid = indexrelid
             where indrelid = 'search_documents'::regclass and relname like '%hnsw%') as hnsw`.execute(database.db);
  const r = rows[0]!;
  return { databaseBytes: Number(r.db), searchTableBytes: Number(r.tbl), hnswIndexBytes: Number(r.hnsw) };
}

async function indexedRows(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom('searchDocuments')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What the index holds for each file the queries name as relevant (JSON report: to see why a file is missed). */
async function indexedTextOfRelevantFiles(database: Database, fileOf: Map<string, string>, judgements: Judgement[]) {
  const wanted = new Set(judgements.flatMap((j) => j.relevant));
  const ids = [...fileOf].filter(([, file]) => wanted.has(file)).map(([id]) => id);
  const out: Record<string, string[]> = Object.fromEntries([...wanted].sort().map((f) => [f, []]));
  if (ids.length === 0) return out;
  const rows = await database.db.selectFrom('searchDocuments').select(['entityId', 'text']).where('entityId', 'in', ids).execute();
  for (const r of rows) out[fileOf.get(r.entityId)!]!.push(r.text);
  return out;
}

async function evaluateStage(
  services: Services,
  database: Database,
  principal: Principal,
  judgements: Judgement[],
  targetOf: (type: string, id: string) => ResultTarget,
  embed: (q: string) => Promise<Float32Array[]>,
): Promise<StageReport> {
  const queries: QueryScore[] = [];
  const agreement: number[] = [];
  for (const j of judgements) {
    const { results } = await services.search.search(principal, { query: j.q, limit: K });
    queries.push(
      scoreQuery(
        j.q,
        j.relevant,
        results.map((r) => ({ target: targetOf(r.type, r.id), similarity: r.similarity })),
        K,
      ),
    );
    // How much of the exact top 10 the HNSW search returned (approximate-search recall).
    agreement.push(
      await annRecall(
        database,
        services.search.embedderId,
        (await embed(j.q))[0]!,
        results.map((r) => r.id),
      ),
    );
  }
  for (const j of judgements) await services.search.search(principal, { query: j.q, limit: K }); // warm-up
  const total: number[] = [];
  const embedOnly: number[] = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (const j of judgements) {
      let t = performance.now();
      await services.search.search(principal, { query: j.q, limit: K });
      total.push(performance.now() - t);
      t = performance.now();
      await embed(j.q);
      embedOnly.push(performance.now() - t);
    }
  }
  const round2 = (x: number) => Math.round(x * 100) / 100;
  return {
    indexedRows: await indexedRows(database),
    mrr: meanOf(queries.map((s) => s.reciprocalRank)),
    annAgreement: meanOf(agreement),
    meanRecall: meanOf(queries.map((s) => s.recall)),
    queries,
    latencyMs: {
      samples: total.length,
      p50: round2(percentile(total, 50)),
      p95: round2(percentile(total, 95)),
      max: round2(percentile(total, 100)),
      embedP50: round2(percentile(embedOnly, 50)),
      embedP95: round2(percentile(embedOnly, 95)),
    },
    sizes: await sizes(database),
  };
}

/**
 * Approximate-search recall of one query: the share of the exact top K (index scans off: a full distance sort) that
 * the served results hold. Rows tied at the K-th distance are each part of an exact top K (which one a sort returns
 * is arbitrary), so a served row at exactly that distance counts too — the ties rule of ann-benchmarks' recall, with
 * no tolerance beyond equality.
 */
async function annRecall(database: Database, embedderId: string, vector: Float32Array, servedIds: string[]): Promise<number> {
  const v = pgvector.toSql(Array.from(vector)) as string;
  const exact = await database.db.transaction().execute(async (trx) => {
    await sql`set local enable_indexscan = off`.execute(trx);
    const rows = await sql<{ entityId: string; distance: number }>`
      select entity_id, embedding <=> ${v}::vector as distance from search_documents where embedder_id = ${embedderId}
      order by distance limit ${K}`.execute(trx);
    return rows.rows;
  });
  if (exact.length === 0) return 1;
  if (servedIds.length === 0) return 0;
  const kth = Number(exact.at(-1)!.distance);
  const served = await sql<{ entityId: string; distance: number }>`
    select entity_id, embedding <=> ${v}::vector as distance from search_documents
    where embedder_id = ${embedderId} and entity_id in (${sql.join(servedIds)})`.execute(database.db);
  const exactIds = new Set(exact.map((r) => r.entityId));
  const hits = served.rows.filter((r) => exactIds.has(r.entityId) || Number(r.distance) <= kth).length;
  return Math.min(hits, exact.length) / exact.length;
}

function stageTable(title: string, s: StageReport): string {
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const lines = [
    `${title}: ${s.indexedRows} indexed rows`,
    `  ${'query'.padEnd(34)} ${'rank'.padStart(4)} ${'recall@10'.padStart(9)} ${'sim@1'.padStart(5)} ${'sim@rel'.padStart(7)}  top-10 mix (dataset/vendor/synthetic)`,
  ];
  for (const q of s.queries) {
    const c = q.composition;
    lines.push(
      `  ${q.q.padEnd(34)} ${String(q.firstRelevantRank ?? '-').padStart(4)} ${`${q.foundRelevant}/${q.relevant.length}`.padStart(9)} ${String(q.topSimilarity ?? '-').padStart(5)} ${String(q.firstRelevantSimilarity ?? '-').padStart(7)}  ${c.dataset}/${c.vendor}/${c.synthetic}`,
    );
  }
  lines.push(
    '  (rank: of the first relevant file, - when none in the top 10; sim@1 / sim@rel: similarity 0–100 of the top result / of that first relevant one)',
  );
  lines.push(`  MRR@10 ${s.mrr.toFixed(3)}   mean recall@10 ${s.meanRecall.toFixed(3)}   (${s.queries.length} queries)`);
  lines.push(`  approximate vs exact search: ${(s.annAgreement * 100).toFixed(1)}% of the exact top ${K} returned`);
  const l = s.latencyMs;
  lines.push(
    `  search latency (embedding + SQL), ${l.samples} runs: p50 ${l.p50} ms  p95 ${l.p95} ms  max ${l.max} ms;  embedding alone p50 ${l.embedP50} ms  p95 ${l.embedP95} ms`,
  );
  lines.push(`  PGlite: database ${mb(s.sizes.databaseBytes)}, search_documents ${mb(s.sizes.searchTableBytes)} (HNSW indexes ${mb(s.sizes.hnswIndexBytes)})`);
  return lines.join('\n');
}

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (args.keepData && existsSync(path.join(args.keepData, 'pgdata'))) throw new UsageError(`${args.keepData} already holds a database (pgdata)`);
  const config = loadConfig();
  const manifest = JSON.parse(await readFile(path.join(args.dir, 'manifest.json'), 'utf8')) as ManifestEntry[];
  const judgements = JSON.parse(await readFile(args.queries, 'utf8')) as Judgement[];
  if (!Array.isArray(manifest) || !Array.isArray(judgements)) throw new Error('manifest and queries must be JSON arrays');

  let database = await connect({ pglite: await createPglite(), ownsPglite: true });
  const blobDir = await mkdtemp(path.join(tmpdir(), 'search-eval-blobs-'));
  let dataDir: string | undefined;
  let composed: Composed | undefined;
  try {
    await migrateToLatest(database.db);
    const reader = args.pages
      ? await createCachedPagesReader(
          args.dir,
          args.pages,
          manifest.map((e) => e.file),
        )
      : createDocumentReader();
    // The same composition root as the server, on a fresh in-memory database and a temporary blob directory.
    const composeOn = (db: Database) => compose({ config, database: db, log, embedder: 'open', reader, blobs: createLocalBlobStore(blobDir) });
    composed = await composeOn(database);
    let { services, embedder: opened } = composed;
    await services.search.prepare();
    const partner = await services.partners.createPartner({ name: 'Search evaluation', tier: 'embed' });
    let principal = await services.authenticate(partner.apiKey);

    progress(`uploading ${manifest.length} documents from ${args.dir}${args.pages ? ` (cached reads from ${args.pages})` : ' (OCR runs now)'}…`);
    const upload = await uploadDataset(services, principal, args.dir, manifest);
    const synthetic = new Set<string>();
    const targetOf = (type: string, id: string): ResultTarget => {
      if (type === 'vendor') return { vendor: true };
      const file = upload.fileOf.get(id);
      if (file) return { file };
      return synthetic.has(id) ? { synthetic: true } : { unknown: true };
    };
    const embed = (q: string) => opened.embed([q]);
    const indexedText = await indexedTextOfRelevantFiles(database, upload.fileOf, judgements);

    progress('measuring relevance and latency at dataset size…');
    const dev = await evaluateStage(services, database, principal, judgements, targetOf, embed);

    let large: (StageReport & { synthetic: number; buildMs: number; docsPerSecond: number }) | undefined;
    let restarted: (StageReport & { sharedBuffers: string }) | undefined;
    if (args.synthetic) {
      const docs = syntheticInvoiceDocuments(args.synthetic, partner.tenantId);
      const started = performance.now();
      for (let i = 0; i < docs.length; i += SYNTHETIC_BATCH) {
        const batch = docs.slice(i, i + SYNTHETIC_BATCH);
        await services.search.indexDocuments(batch);
        for (const d of batch) synthetic.add(d.entityId);
        progress(
          `indexed ${Math.min(i + SYNTHETIC_BATCH, docs.length)}/${docs.length} synthetic documents (${Math.round((performance.now() - started) / 1000)} s)`,
        );
      }
      const buildMs = performance.now() - started;
      progress(`measuring relevance and latency with ${args.synthetic} synthetic documents…`);
      const stage = await evaluateStage(services, database, principal, judgements, targetOf, embed);
      large = { ...stage, synthetic: args.synthetic, buildMs: Math.round(buildMs), docsPerSecond: Math.round(docs.length / (buildMs / 1000)) };

      // The server's way of running it: the same database written to a data directory and opened there as a server
      // starting on it opens it (its own thread, shared_buffers by PGLITE_SHARED_BUFFERS, `auto` by default: sized by
      // the data), composed again, measured again.
      progress('writing the database to a data directory and opening it as a server would…');
      const dump = await database.pglite!.dumpDataDir('none');
      await composed.close();
      await opened.close?.();
      await database.close();
      if (args.keepData) await mkdir(args.keepData, { recursive: true });
      dataDir = args.keepData ?? (await mkdtemp(path.join(tmpdir(), 'search-eval-data-')));
      await (await openPglite({ dataDir: path.join(dataDir, 'pgdata'), loadDataDir: dump })).close();
      database = await connect({ dataDir, sharedBuffers: config.pgliteSharedBuffers });
      const shown = await sql<{ pool: string }>`select current_setting('shared_buffers') as pool`.execute(database.db);
      composed = await composeOn(database);
      ({ services, embedder: opened } = composed);
      await services.search.prepare();
      principal = await services.authenticate(partner.apiKey);
      restarted = { ...(await evaluateStage(services, database, principal, judgements, targetOf, embed)), sharedBuffers: shown.rows[0]!.pool };
    }

    const report = {
      dataset: path.resolve(args.dir),
      queries: path.resolve(args.queries),
      reads: args.pages ? `cached pages from ${path.resolve(args.pages)}` : 'document reader (OCR / PDF text layer)',
      embedder: opened.id,
      upload: { documents: manifest.length, ...upload.counts, ms: Math.round(upload.ms), failures: upload.failures },
      scoring: 'first relevant file rank over the top 10; vendor and synthetic hits keep their rank and are never relevant',
      dev,
      ...(large ? { synthetic: large } : {}),
      ...(restarted ? { syntheticAfterRestart: restarted } : {}),
      indexedTextOfRelevantFiles: indexedText,
    };
    if (args.json) {
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    const out = [
      `search evaluation: ${report.dataset} (${report.reads}), embedder ${report.embedder}`,
      `uploaded ${manifest.length} documents in ${(upload.ms / 1000).toFixed(1)} s: ${upload.counts.invoices} invoices, ${upload.counts.receipts} receipts processed` +
        (upload.failures.length ? `; ${upload.failures.length} failure(s):\n  ${upload.failures.join('\n  ')}` : ''),
      '',
      stageTable('dataset only', dev),
    ];
    if (large) {
      out.push(
        '',
        `synthetic distractors: ${large.synthetic} documents indexed in ${(large.buildMs / 1000).toFixed(1)} s (${large.docsPerSecond} docs/s, embed + upsert in batches of ${SYNTHETIC_BATCH}, HNSW live)`,
        stageTable(`dataset + ${large.synthetic} synthetic, index built live (PGlite's default 128MB shared_buffers)`, large),
      );
    }
    if (large && restarted) {
      out.push(
        '',
        stageTable(
          `dataset + ${large.synthetic} synthetic, on a data directory as the server runs it (own thread, shared_buffers ${restarted.sharedBuffers})`,
          restarted,
        ),
      );
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await composed?.close();
    await composed?.embedder.close?.();
    await database.close();
    await rm(blobDir, { recursive: true, force: true });
    if (dataDir && !args.keepData) await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    const known = err instanceof ConfigError || err instanceof UsageError;
    process.stderr.write(`${known ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(known ? 2 : 1);
  });
}
