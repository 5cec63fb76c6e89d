import type { Kysely } from 'kysely';
import {
  analyzeSearchDocuments,
  countIndexable,
  countStaleSearchDocuments,
  deleteStaleSearchDocuments,
  nearestSearchDocuments,
  prepareVectorColumn,
  type SearchDocument,
  upsertSearchDocuments,
} from './search-index.queries.ts';
import type { DB, SearchEntityType } from '../../platform/db/types.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import type { Embedder } from '../../platform/embeddings/embedder.ts';
import { InvalidInput } from '../../platform/errors.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import type { Invoice, LineItem } from '../invoices/invoice.ts';
import type { Receipt, ReceiptsService } from '../receipts/receipts.service.ts';
import { searchDocumentOfInvoice, searchDocumentOfReceipt, searchDocumentOfVendor } from './search-documents.ts';
import { highlights, matchedTerms, queryTerms } from './search-terms.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import type { Vendor, VendorsService } from '../vendors/vendors.service.ts';

export type { SearchEntityType };

export const SEARCH_LIMITS = { minQuery: 2, maxQuery: 500, defaultLimit: 10, maxLimit: 50 } as const;

/**
 * relevantOnly: a result holding a word of the query is relevant; one that holds none must be close in meaning on
 * its own, at least RELEVANT_SIMILARITY and within RELEVANT_SPREAD points of the best result. Measured on the demo
 * seed (local embedder): the documents a query is about score 36–72 and lead the rest by 10+ points; unrelated
 * vendors and invoices score 14–37 ("zebra" tops out at 18).
 */
export const RELEVANT_SIMILARITY = 30;
export const RELEVANT_SPREAD = 10;

export interface SearchResult {
  type: SearchEntityType;
  id: string;
  similarity: number;
  preview: string;
  /** The query's words the indexed text holds. */
  matchedTerms: string[];
  /** Where the preview holds them. */
  highlights: Array<{ start: number; length: number }>;
  vendorName: string | null;
  merchantName: string | null;
  total: number | null;
  date: string | null;
}

/**
 * Search by meaning: entities are embedded when they are processed (invoices, receipts) or created (vendors);
 * a query is embedded the same way and ranked by cosine similarity among the caller's tenants only.
 */
const REINDEX_BATCH = 200;
const ANALYZE_EVERY = 1000;

export function createSearchService(
  db: Kysely<DB>,
  deps: { embedder: Embedder; tenants: TenantsService; vendors: VendorsService; invoices: InvoicesService; receipts: ReceiptsService },
) {
  const { embedder } = deps;

  // The planner needs fresh statistics to pick the HNSW index over an exact scan of a tenant's rows; embedded
  // PGlite runs no autovacuum, so the index analyzes itself after every ANALYZE_EVERY rows it writes.
  let writtenSinceAnalyze = 0;
  async function index(docs: SearchDocument[]): Promise<void> {
    if (docs.length === 0) return;
    const vectors = await embedder.embed(docs.map((d) => d.text));
    await upsertSearchDocuments(
      db,
      embedder.id,
      docs.map((d, i) => ({ ...d, embedding: vectors[i]! })),
    );
    writtenSinceAnalyze += docs.length;
    if (writtenSinceAnalyze >= ANALYZE_EVERY) {
      writtenSinceAnalyze = 0;
      await analyzeSearchDocuments(db);
    }
  }

  return {
    embedderId: embedder.id,

    /**
     * At start-up: types the vector column for this embedder's dimension (dropping rows of another dimension)
     * and builds the HNSW index. Returns what needs `admin reindex`: rows of another embedder.
     */
    async prepare(): Promise<{ dropped: number; stale: number }> {
      const dropped = await prepareVectorColumn(db, embedder.dimensions);
      await analyzeSearchDocuments(db);
      return { dropped, stale: await countStaleSearchDocuments(db, embedder.id) };
    },

    indexReceipts: (receipts: ReadonlyArray<Receipt & { lineItems: readonly LineItem[] }>) =>
      index(receipts.map((r) => searchDocumentOfReceipt(r, r.lineItems))),

    indexVendors: (vendors: readonly Vendor[]) => index(vendors.map(searchDocumentOfVendor)),

    /** Indexes ready-made documents in one embed + upsert (eval/search loads synthetic distractors with it). */
    indexDocuments: (docs: readonly SearchDocument[]) => index([...docs]),

    /** Indexes processed invoices (not duplicates: their original is indexed) and, with their new counts, their vendors. */
    async indexUploadedInvoices(invoices: ReadonlyArray<Invoice & { lineItems?: readonly LineItem[] }>): Promise<void> {
      const processed = invoices.filter((i) => i.status === 'processed' && !i.duplicateOf);
      const vendorIds = [...new Set(processed.map((i) => i.vendorId).filter((v): v is string => v !== null))];
      const vendors = vendorIds.length ? await deps.vendors.byIds([...new Set(processed.map((i) => i.tenantId))], vendorIds) : [];
      await index([
        ...processed.map((i) => searchDocumentOfInvoice(i, i.lineItems ?? [])),
        ...vendors.filter((v): v is Vendor => v !== null).map(searchDocumentOfVendor),
      ]);
    },

    /**
     * Re-embeds every invoice, receipt and vendor with the current embedder (after EMBEDDER, its model or its
     * dimension changed), then drops rows no entity owns any more. Safe to re-run; searches keep working. An aborted
     * reindex stops after its current batch and removes nothing (`complete: false`).
     */
    async reindex(
      onProgress?: (done: number, total: number) => void,
      signal?: AbortSignal,
    ): Promise<{ indexed: number; removed: number; embedder: string; ms: number; complete: boolean }> {
      const started = performance.now();
      await prepareVectorColumn(db, embedder.dimensions);
      const total = await countIndexable(db);
      let done = 0;
      const sources: Array<(after: string | null) => Promise<Array<{ id: string; doc: SearchDocument }>>> = [
        async (after) => (await deps.invoices.scan(after, REINDEX_BATCH)).map((i) => ({ id: i.id, doc: searchDocumentOfInvoice(i, i.lineItems) })),
        async (after) => (await deps.receipts.scan(after, REINDEX_BATCH)).map((r) => ({ id: r.id, doc: searchDocumentOfReceipt(r, r.lineItems) })),
        async (after) => (await deps.vendors.scan(after, REINDEX_BATCH)).map((v) => ({ id: v.id, doc: searchDocumentOfVendor(v) })),
      ];
      const stopped = () => ({ indexed: done, removed: 0, embedder: embedder.id, ms: Math.round(performance.now() - started), complete: false });
      for (const next of sources) {
        let after: string | null = null;
        for (;;) {
          if (signal?.aborted) return stopped();
          const batch = await next(after);
          if (batch.length === 0) break;
          await index(batch.map((b) => b.doc));
          done += batch.length;
          onProgress?.(done, total);
          after = batch.at(-1)!.id;
        }
      }
      const removed = await deleteStaleSearchDocuments(db, embedder.id);
      await analyzeSearchDocuments(db);
      return { indexed: done, removed, embedder: embedder.id, ms: Math.round(performance.now() - started), complete: true };
    },

    async search(
      principal: Principal,
      args: { query: string; type?: SearchEntityType | null; limit?: number | null; tenantId?: string | null; relevantOnly?: boolean | null },
    ): Promise<{ results: SearchResult[]; query: string; totalResults: number }> {
      const query = (args.query ?? '').trim();
      if (query.length < SEARCH_LIMITS.minQuery) throw InvalidInput.field('query', `must be at least ${SEARCH_LIMITS.minQuery} characters`);
      if (query.length > SEARCH_LIMITS.maxQuery) throw InvalidInput.field('query', `must be at most ${SEARCH_LIMITS.maxQuery} characters`);
      const limit = args.limit ?? SEARCH_LIMITS.defaultLimit;
      if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMITS.maxLimit) {
        throw InvalidInput.field('limit', `must be an integer from 1 to ${SEARCH_LIMITS.maxLimit}`);
      }
      // One tenant: the given one (if the partner's) or the partner's default tenant.
      const tenantIds = [await deps.tenants.resolve(principal, args.tenantId)];
      const [vector] = await embedder.embed([query]);
      // A query of punctuation only has no features to compare (a zero vector): nothing is similar to it.
      if (!vector!.some((x) => x !== 0)) return { results: [], query, totalResults: 0 };
      // Relevant results may sit past the nearest `limit` (a word match ranked low by meaning): look further.
      const candidates = args.relevantOnly ? Math.min(limit * 3, 150) : limit;
      const hits = await nearestSearchDocuments(db, { tenantIds, embedderId: embedder.id, vector: vector!, type: args.type, limit: candidates });
      const terms = queryTerms(query);
      let results = hits.map((h) => ({
        type: h.entityType,
        id: h.entityId,
        // A row whose text had no features has a zero vector: pgvector's cosine with it is NaN, which resembles nothing.
        similarity: Number.isFinite(h.cosine) ? Math.max(0, Math.min(100, Math.round(h.cosine * 100))) : 0,
        preview: h.preview,
        matchedTerms: matchedTerms(`${h.text} ${h.preview}`, terms),
        highlights: highlights(h.preview, terms),
        vendorName: h.vendorName,
        merchantName: h.merchantName,
        total: h.total === null ? null : Number(h.total),
        date: h.date,
      }));
      if (args.relevantOnly) {
        const best = results[0]?.similarity ?? 0;
        const close = (r: SearchResult) => r.similarity >= RELEVANT_SIMILARITY && r.similarity >= best - RELEVANT_SPREAD;
        const words = results.filter((r) => r.matchedTerms.length > 0);
        results = [...words, ...results.filter((r) => r.matchedTerms.length === 0 && close(r))].slice(0, limit);
      }
      return { results, query, totalResults: results.length };
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
