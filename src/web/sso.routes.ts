import type { FastifyInstance, FastifyReply } from 'fastify';
import { sessionCookie } from '../platform/http/cookies.ts';
import { acceptForms } from '../platform/http/forms.ts';
import { SsoSignInError } from '../modules/embed/sso/errors.ts';
import type { SsoService } from '../modules/embed/sso/sso.service.ts';
import { esc, simplePage } from './html.ts';
import { isUuid } from '../platform/lib/ids.ts';

type Params = { tenantId: string };

/**
 * Sign-in through a tenant's own identity provider: `GET /sso/{tenantId}/start` → the IdP →
 * `GET /sso/{tenantId}/oidc/callback` or `POST /sso/{tenantId}/saml/acs` → session cookie → /app/dashboard.
 */
export function mountSsoRoutes(root: FastifyInstance, deps: { sso: SsoService; publicUrl: () => string; log: { warn(obj: object, msg: string): void } }): void {
  root.register(async (app) => {
    acceptForms(app, 2_000_000); // the IdP posts the SAML response as an HTML form

    const refused = (reply: FastifyReply, err: SsoSignInError) => {
      deps.log.warn({ reason: err.reason, cause: err.cause }, 'single sign-on refused');
      return reply
        .code(401)
        .type('text/html; charset=utf-8')
        .send(simplePage('Sign-in failed', `<h1>Sign-in failed</h1><p>${esc(err.message)}</p>`));
    };
    const signedIn = (reply: FastifyReply, session: { sessionToken: string; maxAgeSeconds: number }) =>
      reply.code(303).header('set-cookie', sessionCookie(session.sessionToken, session.maxAgeSeconds)).header('location', '/app/dashboard').send();
    const notFound = (reply: FastifyReply) => reply.code(404).type('text/html; charset=utf-8').send(simplePage('Not found', '<h1>Not found</h1>'));

    app.get<{ Params: Params }>('/sso/:tenantId/start', async (request, reply) => {
      if (!isUuid(request.params.tenantId)) return notFound(reply);
      try {
        return reply
          .code(302)
          .header('cache-control', 'no-store')
          .header('location', await deps.sso.start(request.params.tenantId))
          .send();
      } catch (err) {
        if (err instanceof SsoSignInError) return refused(reply, err);
        throw err;
      }
    });

    app.get<{ Params: Params }>('/sso/:tenantId/oidc/callback', async (request, reply) => {
      if (!isUuid(request.params.tenantId)) return notFound(reply);
      try {
        // The URL the IdP redirected to, as it knows it (PUBLIC_URL), with the code, state and iss it added.
        return signedIn(reply, await deps.sso.finishOidc(request.params.tenantId, `${deps.publicUrl()}${request.url}`));
      } catch (err) {
        if (err instanceof SsoSignInError) return refused(reply, err);
        throw err;
      }
    });

    app.post<{ Params: Params; Body: Record<string, string> | undefined }>('/sso/:tenantId/saml/acs', async (request, reply) => {
      if (!isUuid(request.params.tenantId)) return notFound(reply);
      const response = request.body?.SAMLResponse;
      if (typeof response !== 'string' || !response) {
        return reply.code(400).type('text/html; charset=utf-8').send(simplePage('Sign-in failed', '<h1>Sign-in failed</h1><p>No SAMLResponse was posted.</p>'));
      }
      try {
        return signedIn(reply, await deps.sso.finishSaml(request.params.tenantId, response));
      } catch (err) {
        if (err instanceof SsoSignInError) return refused(reply, err);
        throw err;
      }
    });

    app.get<{ Params: Params }>('/sso/:tenantId/saml/metadata', async (request, reply) => {
      if (!isUuid(request.params.tenantId)) return notFound(reply);
      try {
        return reply.type('application/samlmetadata+xml').send(await deps.sso.samlMetadata(request.params.tenantId));
      } catch (err) {
        if (err instanceof SsoSignInError) return notFound(reply);
        throw err;
      }
    });
  });
}
