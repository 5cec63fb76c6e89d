import type { FastifyInstance } from 'fastify';
import { readCookie, SESSION_COOKIE } from '../platform/http/cookies.ts';
import { DocumentLinkRefused, type DocumentLinks } from '../modules/documents/document-links.ts';
import type { ProvisioningService } from '../modules/embed/provisioning.service.ts';

/**
 * `GET /documents/{documentId}?tenant=…&holder=…&expires=…&signature=…`: the original file behind a short-lived
 * link handed out by GraphQL Invoice.original (document-links.ts checks it). Served inline with a sandboxing CSP, so a
 * PDF or image opened on its own can run nothing; never cached beyond the link's life.
 */
export function mountDocumentRoutes(root: FastifyInstance, deps: { documentLinks: DocumentLinks; provisioning: ProvisioningService }): void {
  root.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/documents/:id', async (request, reply) => {
    reply.header('cache-control', 'private, max-age=300').header('referrer-policy', 'no-referrer').header('x-content-type-options', 'nosniff');
    const session = await deps.provisioning.session(readCookie(request.headers.cookie, SESSION_COOKIE));
    try {
      const file = await deps.documentLinks.open(request.params.id, request.query ?? {}, session?.userId ?? null);
      const name = (file.fileName ?? 'document').replace(/[^\w.-]/g, '_');
      return reply
        .type(file.mimeType)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('content-disposition', `inline; filename="${name}"`)
        .send(file.bytes);
    } catch (err) {
      if (!(err instanceof DocumentLinkRefused)) throw err;
      return reply.code(err.status).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(err.message);
    }
  });
}
