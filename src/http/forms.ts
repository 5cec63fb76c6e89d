import type { FastifyInstance } from 'fastify';

/**
 * Lets the routes of this (encapsulated) Fastify scope read HTML form posts
 * (application/x-www-form-urlencoded) as a flat object of strings.
 */
export function acceptForms(scope: FastifyInstance, bodyLimit: number): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
