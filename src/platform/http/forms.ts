import type { FastifyInstance } from 'fastify';
import { textValueProblem } from '../graphql/input-text.ts';

/**
 * Lets the routes of this (encapsulated) Fastify scope read HTML form posts
 * (application/x-www-form-urlencoded) as a flat object of strings. The text rule of the API holds here too:
 * a field with NUL or another control character is a 400 naming it.
 */
export function acceptForms(scope: FastifyInstance, bodyLimit: number): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit }, (_req, body, done) => {
    const fields = Object.fromEntries(new URLSearchParams(body as string));
    for (const [name, value] of Object.entries(fields)) {
      const problem = textValueProblem(value) ?? textValueProblem(name);
      if (problem) return done(Object.assign(new Error(`form field ${JSON.stringify(name)} ${problem}`), { statusCode: 400 }), undefined);
    }
    done(null, fields);
  });
}
