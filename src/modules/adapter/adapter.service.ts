import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type AdapterProfileRow,
  claimRequest,
  completeRequest,
  deleteProfile,
  failRequest,
  findDefaultProfile,
  findProfile,
  findRequest,
  listProfiles,
  releaseRequest,
  type RequestWindows,
  upsertProfile,
} from './adapter.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import { applyProfile, type CompiledProfile, compileSpec } from './profile.ts';
import { createSourceFetcher, parseSource, type Source, type SourceSettings } from './sources.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { AppError, Conflict, InvalidInput, NotFound, translateDbError, Upstream } from '../../platform/errors.ts';
import { type DocumentExtractor, ExtractionServiceError } from '../../extraction/extractor.ts';
import { sniffFileType } from '../../extraction/sniff.ts';
import { type FileType, UnreadableDocumentError, UnsupportedFileError } from '../../extraction/types.ts';
import type { Categorize } from '../invoices/invoice.ts';
import { invoiceDocument, receiptDocument } from './adapter-document.ts';
import { canonicalRequest, mismatch, replayedError } from './adapter-request.ts';
import type { TaxCategorize } from '../receipts/receipts.service.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import type { UsageService } from '../usage/usage.service.ts';

// The object-storage adapter (POST /api/v1/partner/extract): fetch the partner's document from a pre-signed URL,
// S3 or Cloud Storage, extract it with the same engine and categoriser as uploads, shape it with the partner's
// profile, meter it, and remember the result for 24 hours under the request's correlation_id. Nothing is stored
// as an invoice or receipt record.

export type AdapterDocumentType = 'invoice' | 'receipt';

export interface AdapterExtractInput {
  sourceUrl?: string | null;
  sourceUri?: string | null;
  correlationId?: string | null;
  documentType?: AdapterDocumentType | null;
  profile?: string | null;
  tenantId?: string | null;
}

/** What is remembered under a correlation_id (and returned again with cacheHit). */
interface StoredResult {
  profile: string;
  data: Record<string, unknown>;
  /** The other documents of a multi-vendor file, in the same shape. */
  splitDocuments: Array<Record<string, unknown>>;
}

export interface AdapterExtractResult extends StoredResult {
  correlationId: string | null;
  cacheHit: boolean;
}

export interface ShapeProfile {
  name: string;
  isDefault: boolean;
  spec: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface IdempotencySettings {
  /** How long a correlation_id is remembered (24 h). */
  ttlSeconds: number;
  /** A pending attempt older than this is taken to be abandoned (its instance stopped) and may be taken over. */
  staleSeconds: number;
  /** How long a request waits for a concurrent one with the same id before answering 409. */
  waitMs: number;
  /** How often a waiting request reads the row. */
  pollMs: number;
}

export const BUILT_IN_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_SPEC_CHARS = 64 * 1024;
const MAX_CORRELATION_ID = 255;
const DEFAULT_IDEMPOTENCY: IdempotencySettings = { ttlSeconds: 24 * 3600, staleSeconds: 15 * 60, waitMs: 120_000, pollMs: 100 };

export function createAdapterService(
  db: Kysely<DB>,
  deps: {
    extractor: DocumentExtractor;
    categorize: Categorize;
    taxCategorize: TaxCategorize;
    tenants: TenantsService;
    usage: Pick<UsageService, 'record'>;
    sources: SourceSettings;
    idempotency?: Partial<IdempotencySettings>;
    log: { warn(obj: object, msg: string): void };
  },
) {
  const fetcher = createSourceFetcher(deps.sources);
  const idem = { ...DEFAULT_IDEMPOTENCY, ...deps.idempotency };
  const windows: RequestWindows = { ttlSeconds: idem.ttlSeconds, staleSeconds: idem.staleSeconds };

  async function resolveProfile(principal: Principal, name: string | null | undefined): Promise<{ name: string; compiled: CompiledProfile | null }> {
    let row: AdapterProfileRow | undefined;
    if (name == null) row = await findDefaultProfile(db, principal.partner.id);
    else if (name !== BUILT_IN_PROFILE) {
      row = await findProfile(db, principal.partner.id, name);
      if (!row) throw new NotFound(`shape profile "${name}"`);
    }
    return row ? { name: row.name, compiled: compileSpec(JSON.parse(row.spec)) } : { name: BUILT_IN_PROFILE, compiled: null };
  }

  /** Fetch → sniff → extract → categorise → shape → meter. `documentId` identifies the charge. */
  async function process(principal: Principal, input: AdapterExtractInput, source: Source, documentId: string): Promise<StoredResult> {
    const documentType = input.documentType ?? 'invoice';
    const tenantId = await deps.tenants.resolve(principal, input.tenantId);
    const profile = await resolveProfile(principal, input.profile);
    const field = source.kind === 'url' ? 'source_url' : 'source_uri';
    const bytes = await fetcher.fetch(source);
    let fileType: FileType;
    try {
      fileType = sniffFileType(bytes, documentType);
    } catch (err) {
      if (err instanceof UnsupportedFileError) throw InvalidInput.field(field, `is not a supported document: ${err.message}`);
      throw err;
    }
    const { pageCount, documents } = await extract(bytes, fileType, documentType, field, tenantId);
    const shaped = documents.map((d) => (profile.compiled ? applyProfile(profile.compiled, d) : d));
    await deps.usage.record(principal, { tenantId, documentId, kind: documentType, pages: pageCount, channel: 'adapter' });
    return { profile: profile.name, data: shaped[0]!, splitDocuments: shaped.slice(1) };
  }

  /** The extracted documents as the built-in profile shows them (and as profiles read them). */
  async function extract(bytes: Uint8Array, fileType: FileType, documentType: AdapterDocumentType, field: string, lane: string) {
    try {
      if (documentType === 'receipt') {
        const { pageCount, receipt } = await deps.extractor.extractReceipt(bytes, fileType, { lane });
        const categories = await deps.categorize(receipt.lineItems, { vendorName: receipt.merchantName });
        return { pageCount, documents: [receiptDocument(receipt, pageCount, categories, deps.taxCategorize(receipt))] };
      }
      const { pageCount, invoices } = await deps.extractor.extractInvoices(bytes, fileType, { lane });
      if (invoices.length === 0) throw InvalidInput.field(field, 'holds no invoice that could be read');
      const documents = await Promise.all(
        invoices.map(async (inv) => {
          const categories = await deps.categorize(inv.lineItems, { vendorName: inv.vendorName });
          return invoiceDocument(inv, pageCount, categories);
        }),
      );
      return { pageCount, documents };
    } catch (err) {
      if (err instanceof UnreadableDocumentError)
        throw InvalidInput.field(field, `could not be read as ${documentType === 'invoice' ? 'an invoice' : 'a receipt'}: ${err.message}`);
      if (err instanceof ExtractionServiceError) {
        deps.log.warn({ err, cause: err.cause }, 'adapter extraction failed in the extraction service');
        throw new Upstream(err.message);
      }
      throw err;
    }
  }

  /**
   * Runs `work` once per (partner, correlation_id) within the window: the first request claims the row; the
   * others with the same body wait for it (polling, so it works across instances) and get its result or its
   * error; a different body is 409. Failed, expired and abandoned rows are replaced by the next request.
   */
  async function once(
    principal: Principal,
    correlationId: string,
    request: { hash: string; fields: Record<string, string> },
    work: (documentId: string) => Promise<StoredResult>,
  ): Promise<{ stored: StoredResult; cacheHit: boolean }> {
    const partnerId = principal.partner.id;
    const deadline = Date.now() + idem.waitMs;
    let waitingOn: string | undefined;
    for (;;) {
      const claimed = await claimRequest(db, { partnerId, correlationId, requestHash: request.hash, requestFields: JSON.stringify(request.fields) });
      if (claimed) return { stored: await runClaimed(partnerId, claimed.id, work), cacheHit: false };
      const row = await findRequest(db, partnerId, correlationId, windows);
      if (!row) continue; // released meanwhile: claim again
      if (row.expired || row.abandoned || (row.status === 'failed' && row.id !== waitingOn)) {
        await releaseRequest(db, partnerId, row.id, windows);
        continue;
      }
      if (row.requestHash !== request.hash) throw mismatch(correlationId, row, request.fields);
      if (row.status === 'done') return { stored: JSON.parse(row.response!) as StoredResult, cacheHit: true };
      if (row.status === 'failed') throw replayedError(row);
      waitingOn = row.id;
      if (Date.now() >= deadline) throw new Conflict(`a request with correlation_id "${correlationId}" is still being processed; retry later`);
      await new Promise((r) => setTimeout(r, idem.pollMs * (0.5 + Math.random())));
    }
  }

  async function runClaimed(partnerId: string, id: string, work: (documentId: string) => Promise<StoredResult>): Promise<StoredResult> {
    let stored: StoredResult;
    try {
      stored = await work(id);
    } catch (err) {
      const failure = err instanceof AppError ? { code: err.code, message: err.message } : { code: 'INTERNAL_SERVER_ERROR', message: 'internal error' };
      await failRequest(db, partnerId, id, failure).catch((e) => deps.log.warn({ err: e }, 'could not mark an adapter request failed'));
      throw err;
    }
    await completeRequest(db, partnerId, id, JSON.stringify(stored));
    return stored;
  }

  return {
    /** The partner's saved profiles, by name. */
    async listProfiles(principal: Principal): Promise<ShapeProfile[]> {
      return (await listProfiles(db, principal.partner.id)).map(toProfile);
    },

    /** Creates or replaces a profile (the spec is checked first); isDefault true makes it the only default. */
    async setProfile(principal: Principal, input: { name: string; spec: unknown; isDefault?: boolean | null }): Promise<ShapeProfile> {
      const name = checkProfileName(input.name);
      compileSpec(input.spec);
      const json = JSON.stringify(input.spec);
      if (json.length > MAX_SPEC_CHARS) throw InvalidInput.field('spec', `must be at most ${MAX_SPEC_CHARS / 1024} KB of JSON`);
      try {
        return toProfile(await upsertProfile(db, principal.partner.id, { name, spec: json, isDefault: input.isDefault ?? null }));
      } catch (err) {
        throw translateDbError(err, { adapter_profiles__partner_id_default: new Conflict('another profile was made the default at the same time; retry') });
      }
    },

    async deleteProfile(principal: Principal, name: string): Promise<boolean> {
      if (!(await deleteProfile(db, principal.partner.id, name))) throw new NotFound(`shape profile "${name}"`);
      return true;
    },

    /** One document from object storage, shaped; idempotent for 24 h per correlation_id (access checked by the resolver). */
    async extract(principal: Principal, input: AdapterExtractInput): Promise<AdapterExtractResult> {
      const source = parseSource(input);
      const documentType = input.documentType ?? 'invoice';
      if (documentType !== 'invoice' && documentType !== 'receipt') throw InvalidInput.field('document_type', 'must be invoice or receipt');
      const correlationId = input.correlationId ?? null;
      if (correlationId === null) {
        const stored = await process(principal, input, source, randomUUID());
        return { correlationId: null, cacheHit: false, ...stored };
      }
      if (correlationId.length === 0 || correlationId.length > MAX_CORRELATION_ID) {
        throw InvalidInput.field('correlation_id', `must be 1 to ${MAX_CORRELATION_ID} characters`);
      }
      const request = canonicalRequest({ ...input, documentType });
      const { stored, cacheHit } = await once(principal, correlationId, request, (id) => process(principal, input, source, id));
      return { correlationId, cacheHit, ...stored };
    },

    close: () => fetcher.close(),
  };
}
export type AdapterService = ReturnType<typeof createAdapterService>;

function checkProfileName(name: string): string {
  if (typeof name !== 'string' || !PROFILE_NAME.test(name)) {
    throw InvalidInput.field('name', 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  }
  if (name === BUILT_IN_PROFILE)
    throw InvalidInput.field('name', `"${BUILT_IN_PROFILE}" is the built-in profile; choose another name (and isDefault: true to use it by default)`);
  return name;
}

function toProfile(row: AdapterProfileRow): ShapeProfile {
  return {
    name: row.name,
    isDefault: row.isDefault,
    spec: JSON.parse(row.spec) as Record<string, unknown>,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
