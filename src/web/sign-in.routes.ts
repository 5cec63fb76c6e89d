import type { FastifyInstance } from 'fastify';
import { InvalidInput } from '../errors.ts';
import { sessionCookie } from '../http/cookies.ts';
import { LinkRefused, type ProvisioningService } from '../provisioning.service.ts';
import { esc, simplePage } from './html.ts';

/**
 * People's entry points: `GET /embed/session?token=…` (a one-time embed link: sets the session cookie and
 * redirects to /app/{page}) and the tenant's one-time onboarding link `GET|POST /setup/{token}`.
 */
export function mountSignInRoutes(root: FastifyInstance, deps: { provisioning: ProvisioningService }): void {
  root.register(async (app) => {
    // HTML forms post urlencoded bodies (only these routes accept them).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    const refused = (err: LinkRefused) =>
      simplePage('Sign-in link refused', `<h1>This link cannot be used</h1><p>${esc(err.message)}</p>`);

    app.get<{ Querystring: { token?: string } }>('/embed/session', async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      try {
        const opened = await deps.provisioning.openEmbedLink(token);
        return reply.code(303).header('set-cookie', sessionCookie(opened.sessionToken, opened.maxAgeSeconds)).header('location', `/app/${opened.page}`).send();
      } catch (err) {
        if (!(err instanceof LinkRefused)) throw err;
        return reply.code(err.reason === 'unknown' ? 404 : 410).type('text/html; charset=utf-8').send(refused(err));
      }
    });

    app.get<{ Params: { token: string } }>('/setup/:token', async (request, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8');
      try {
        const { tenant } = await deps.provisioning.setupView(request.params.token);
        const sso = tenant.ssoProvider
          ? `<p>Single sign-on: <strong>${esc(tenant.ssoProvider.toUpperCase())}</strong>. Your administrator connects it here after confirming.</p>`
          : '<p class="note">No single sign-on was requested for this account.</p>';
        return reply.send(
          simplePage(
            'Set up your account',
            `<h1>Welcome, ${esc(tenant.name)}</h1>
  <p>Confirm the details of your account to finish setting it up.</p>
  <form method="post">
  <label for="name">Business name</label><input id="name" name="name" value="${esc(tenant.name)}" required maxlength="200">
  <p>Owner: ${esc(tenant.email ?? '')} · Locations: up to ${esc(tenant.maxLocations)}</p>
  ${sso}
  <button type="submit">Confirm</button>
  </form>`,
          ),
        );
      } catch (err) {
        if (!(err instanceof LinkRefused)) throw err;
        return reply.code(err.reason === 'unknown' ? 404 : 410).send(refused(err));
      }
    });

    app.post<{ Params: { token: string }; Body: Record<string, string> | undefined }>('/setup/:token', async (request, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      try {
        const name = typeof request.body?.name === 'string' ? request.body.name : undefined;
        const { tenant } = await deps.provisioning.completeSetup(request.params.token, { name });
        return reply.send(simplePage('Account ready', `<h1>${esc(tenant.name)} is ready</h1><p>You can close this page.</p>`));
      } catch (err) {
        if (err instanceof InvalidInput) return reply.code(400).send(simplePage('Check the form', `<h1>Check the form</h1><p>${esc(err.message)}</p>`));
        if (!(err instanceof LinkRefused)) throw err;
        return reply.code(err.reason === 'unknown' ? 404 : 410).send(refused(err));
      }
    });
  });
}
