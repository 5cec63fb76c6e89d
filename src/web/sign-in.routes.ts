import type { FastifyInstance, FastifyReply } from 'fastify';
import { InvalidInput } from '../platform/errors.ts';
import { readCookie, sessionCookie } from '../platform/http/cookies.ts';
import { acceptForms } from '../platform/http/forms.ts';
import { LinkRefused } from '../modules/embed/link-refused.ts';
import { type ProvisioningService, SETUP_OPEN_WINDOW_MS } from '../modules/embed/provisioning.service.ts';
import type { SsoService } from '../modules/embed/sso/sso.service.ts';
import { esc, simplePage } from './html.ts';

/** The cookie that binds a setup link to the browser that opened it first; sent back to that link's page only. */
const SETUP_COOKIE = 'pa_setup';
const setupCookie = (token: string, binder: string, maxAgeSeconds: number) =>
  `${SETUP_COOKIE}=${binder}; Path=/setup/${token}; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`;
/** Fetch destinations of a page in a frame: a cross-site frame does not keep a SameSite=Lax cookie. */
const FRAMES = new Set(['iframe', 'frame', 'embed', 'object', 'fencedframe']);

/**
 * People's entry points: `GET /embed/session?token=…` (a one-time embed link: sets the session cookie and
 * redirects to /app/{page}) and the tenant's one-time onboarding link `GET|POST /setup/{token}`, bound to the browser
 * that opens it first (a cookie) and usable for SETUP_OPEN_WINDOW_MS from then.
 */
export function mountSignInRoutes(root: FastifyInstance, deps: { provisioning: ProvisioningService; sso: SsoService }): void {
  root.register(async (app) => {
    acceptForms(app, 65_536); // the onboarding page's form (SAML metadata included)

    const refused = (err: LinkRefused, title = 'Sign-in link refused') => simplePage(title, `<h1>This link cannot be used</h1><p>${esc(err.message)}</p>`);
    const setupRefused = (reply: FastifyReply, err: unknown) => {
      if (!(err instanceof LinkRefused)) throw err;
      return reply.code(err.status).send(refused(err, 'Setup link refused'));
    };

    app.get<{ Querystring: { token?: string } }>('/embed/session', async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      try {
        const opened = await deps.provisioning.openEmbedLink(token);
        return reply.code(303).header('set-cookie', sessionCookie(opened.sessionToken, opened.maxAgeSeconds)).header('location', `/app/${opened.page}`).send();
      } catch (err) {
        if (!(err instanceof LinkRefused)) throw err;
        return reply.code(err.status).type('text/html; charset=utf-8').send(refused(err));
      }
    });

    app.get<{ Params: { token: string } }>('/setup/:token', async (request, reply) => {
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8');
      const { token } = request.params;
      const href = `/setup/${encodeURIComponent(token)}`;
      try {
        // In a frame the binding cookie would be dropped and the link lost: the page asks to be opened on its own.
        if (FRAMES.has(String(request.headers['sec-fetch-dest']))) {
          await deps.provisioning.checkSetup(token);
          return reply.send(
            simplePage(
              'Set up your account',
              `<h1>Set up your account</h1><p><a href="${esc(href)}" target="_blank" rel="noopener">Open the setup page in its own window</a></p>`,
            ),
          );
        }
        const { tenant, opened } = await deps.provisioning.previewSetup(token, readCookie(request.headers.cookie, SETUP_COOKIE));
        // Viewing binds nothing (mail scanners and link previews fetch links); the button opens it in this browser.
        if (!opened) {
          return reply.send(
            simplePage(
              'Set up your account',
              `<h1>Set up ${esc(tenant.name)}</h1>
  <p>This link opens the setup of your account in this browser. From then on it works only here, for
  ${SETUP_OPEN_WINDOW_MS / 60_000} minutes.</p>
  <form method="post" action="${esc(href)}/open"><button type="submit">Continue</button></form>`,
            ),
          );
        }
        const sso = ssoFields(tenant.ssoProvider, deps.sso.endpoints(tenant.id));
        return reply.send(
          simplePage(
            'Set up your account',
            `<h1>Welcome, ${esc(tenant.name)}</h1>
  <p>Confirm the details of your account to finish setting it up.</p>
  <p class="note">This link works once, in this browser only, for ${SETUP_OPEN_WINDOW_MS / 60_000} minutes from when it was first opened.</p>
  <form method="post" action="${esc(href)}">
  <label for="name">Business name</label><input id="name" name="name" value="${esc(tenant.name)}" required maxlength="200">
  <p>Owner: ${esc(tenant.email ?? '')} · Locations: up to ${esc(tenant.maxLocations)}</p>
  ${sso}
  <button type="submit">Confirm</button>
  </form>`,
          ),
        );
      } catch (err) {
        return setupRefused(reply, err);
      }
    });

    // The first opening: binds the link to this browser (a cookie for this link's path) and shows its form.
    app.post<{ Params: { token: string } }>('/setup/:token/open', async (request, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      const { token } = request.params;
      try {
        const opened = await deps.provisioning.openSetup(token, readCookie(request.headers.cookie, SETUP_COOKIE));
        if (opened.binder) reply.header('set-cookie', setupCookie(token, opened.binder, SETUP_OPEN_WINDOW_MS / 1000));
        return reply
          .code(303)
          .header('location', `/setup/${encodeURIComponent(token)}`)
          .send();
      } catch (err) {
        return setupRefused(reply, err);
      }
    });

    app.post<{ Params: { token: string }; Body: Record<string, string> | undefined }>('/setup/:token', async (request, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      const { token } = request.params;
      const binder = readCookie(request.headers.cookie, SETUP_COOKIE);
      try {
        const form = request.body ?? {};
        const name = typeof form.name === 'string' ? form.name : undefined;
        // Single sign-on is connected (and checked: OIDC discovery, SAML metadata) before the link is used up.
        const { tenant: pending } = await deps.provisioning.setupView(token, binder);
        if (pending.ssoProvider === 'oidc') {
          await deps.sso.configureOidc(pending.id, { issuer: form.issuer ?? '', clientId: form.clientId ?? '', clientSecret: form.clientSecret ?? '' });
        } else if (pending.ssoProvider === 'saml') {
          await deps.sso.configureSaml(pending.id, form.metadata ?? '');
        }
        const { tenant } = await deps.provisioning.completeSetup(token, binder, { name });
        const signIn = tenant.ssoProvider ? `<p>Your team signs in at <a href="/sso/${esc(tenant.id)}/start">/sso/${esc(tenant.id)}/start</a>.</p>` : '';
        reply.header('set-cookie', setupCookie(token, '', 0));
        return reply.send(simplePage('Account ready', `<h1>${esc(tenant.name)} is ready</h1>${signIn}<p>You can close this page.</p>`));
      } catch (err) {
        if (err instanceof InvalidInput) return reply.code(400).send(simplePage('Check the form', `<h1>Check the form</h1><p>${esc(err.message)}</p>`));
        return setupRefused(reply, err);
      }
    });
  });
}

/** The onboarding form's single sign-on part: what to register at the IdP, and the fields to connect it. */
function ssoFields(provider: 'oidc' | 'saml' | null, endpoints: ReturnType<SsoService['endpoints']>): string {
  if (provider === 'oidc') {
    return `<h2>Single sign-on (OpenID Connect)</h2>
<p class="note">Register this redirect URI with your identity provider: <code>${esc(endpoints.oidcRedirectUri)}</code></p>
<label for="issuer">Issuer URL</label><input id="issuer" name="issuer" required>
<label for="clientId">Client ID</label><input id="clientId" name="clientId" required>
<label for="clientSecret">Client secret</label><input id="clientSecret" name="clientSecret" type="password" required>`;
  }
  if (provider === 'saml') {
    return `<h2>Single sign-on (SAML)</h2>
<p class="note">Register us at your identity provider: entity ID <code>${esc(endpoints.samlEntityId)}</code>, ACS URL <code>${esc(endpoints.samlAcsUrl)}</code>.</p>
<label for="metadata">Your identity provider's metadata (XML)</label><textarea id="metadata" name="metadata" rows="8" style="width:100%" required></textarea>`;
  }
  return '<p class="note">No single sign-on was requested for this account.</p>';
}
