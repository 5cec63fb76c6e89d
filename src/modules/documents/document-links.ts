import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Principal } from '../../platform/auth/authenticate.ts';
import type { DB } from '../../platform/db/types.ts';
import { isUuid } from '../../platform/lib/ids.ts';
import { BlobNotFoundError, type BlobStore } from '../../platform/storage/index.ts';
import { type DocumentRow, findDocuments, signingKey } from './documents.queries.ts';

/** How long a link to an original document works. */
export const DOCUMENT_LINK_TTL_MS = 5 * 60_000;

export interface DocumentFile {
  url: string;
  expiresAt: Date;
  fileType: DocumentRow['fileType'];
  mimeType: string;
  pageCount: number | null;
  sizeBytes: number;
  fileName: string | null;
}

/** Why a link did not open (the route answers 403, or 404 when the file is gone). */
export class DocumentLinkRefused extends Error {
  constructor(
    readonly status: 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

const b64 = (buf: Buffer) => buf.toString('base64url');

/**
 * Short-lived links to the original file of a document, from whichever blob store keeps it (local or GCS): the path
 * names the document, its tenant, who asked (a signed-in user `s:<id>` or an API key `k:<id>`) and an expiry, all
 * under an HMAC-SHA256 signature with a key kept in the database (so every instance checks what any one signed). A
 * link issued to a signed-in user opens only with that user's session too; one issued to an API key is a bearer link,
 * like a signed storage URL. The bytes go through this server: pages keep `img-src 'self'` and no storage
 * credentials are needed to sign.
 */
export function createDocumentLinks(db: Kysely<DB>, deps: { blobs: BlobStore; publicUrl: () => string; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  let key: Promise<Buffer> | undefined;
  const secret = () => (key ??= signingKey(db, 'document-links', randomBytes(32)).catch((err: unknown) => ((key = undefined), Promise.reject(err))));
  const payload = (p: { documentId: string; tenantId: string; holder: string; expires: number }) => `${p.documentId}.${p.tenantId}.${p.holder}.${p.expires}`;
  const sign = async (text: string) =>
    createHmac('sha256', await secret())
      .update(text)
      .digest();

  return {
    /** Documents by id among the given tenants, in the order of `ids` (a DataLoader batch). */
    async byIds(tenantIds: readonly string[], ids: readonly string[]): Promise<Array<DocumentRow | null>> {
      const rows = await findDocuments(db, tenantIds, ids);
      return ids.map((id) => rows.find((r) => r.id === id) ?? null);
    },

    /** A link to the document's kept file for this caller; null when the file is not kept (or only until extracted). */
    async link(principal: Principal, doc: DocumentRow): Promise<DocumentFile | null> {
      if (!doc.blobKey || doc.blobTemporary) return null;
      const holder = principal.session ? `s:${principal.session.userId}` : `k:${principal.keyId}`;
      const expires = Math.floor((now().getTime() + DOCUMENT_LINK_TTL_MS) / 1000);
      const signature = b64(await sign(payload({ documentId: doc.id, tenantId: doc.tenantId, holder, expires })));
      const query = new URLSearchParams({ tenant: doc.tenantId, holder, expires: String(expires), signature });
      return {
        url: `${deps.publicUrl()}/documents/${doc.id}?${query.toString()}`,
        expiresAt: new Date(expires * 1000),
        fileType: doc.fileType,
        mimeType: doc.mimeType,
        pageCount: doc.pageCount,
        sizeBytes: doc.sizeBytes,
        fileName: doc.originalName,
      };
    },

    /** The file behind a link, if the link is genuine, unexpired and (for a user's link) opened in that user's session. */
    async open(
      documentId: string,
      q: Record<string, string | undefined>,
      sessionUserId: string | null,
    ): Promise<{ bytes: Buffer; mimeType: string; fileName: string | null }> {
      const { tenant = '', holder = '', signature = '' } = q;
      const expires = Number(q.expires);
      const refused = new DocumentLinkRefused(403, 'This link is not valid or has expired: open the invoice again for a fresh one.');
      if (!isUuid(documentId) || !isUuid(tenant) || !Number.isInteger(expires) || !/^[sk]:[\w-]{1,64}$/.test(holder)) throw refused;
      const expected = await sign(payload({ documentId, tenantId: tenant, holder, expires }));
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused;
      if (expires * 1000 < now().getTime()) throw refused;
      if (holder.startsWith('s:') && holder !== `s:${sessionUserId}`) throw refused;
      const [doc] = await findDocuments(db, [tenant], [documentId]);
      if (!doc?.blobKey || doc.blobTemporary) throw new DocumentLinkRefused(404, 'The original file is no longer kept.');
      try {
        return { bytes: await deps.blobs.get(doc.blobKey), mimeType: doc.mimeType, fileName: doc.originalName };
      } catch (err) {
        if (err instanceof BlobNotFoundError) throw new DocumentLinkRefused(404, 'The original file is no longer kept.');
        throw err;
      }
    },
  };
}
export type DocumentLinks = ReturnType<typeof createDocumentLinks>;
