import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findStoreByExternalId } from '../tenants/stores.queries.ts';
import { findTenant, insertTenant, renameTenant } from '../tenants/tenants.queries.ts';
import type { DB, LegacyPlan, SsoProvider, TenantRow, Tier, UserRole } from '../../platform/db/types.ts';
import { USER_ROLES } from '../../platform/db/types.ts';
import {
  bindOneTimeToken,
  findOneTimeToken,
  findSession,
  insertOneTimeToken,
  insertSession,
  listUsersOfTenants,
  type OneTimeTokenRow,
  redeemOneTimeToken,
  revokeSetupLinks,
  upsertUser,
} from './users.queries.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { Conflict, InvalidInput, NotFound } from '../../platform/errors.ts';
import { optionalText } from '../../platform/lib/text.ts';
import { SsoSignInError } from './sso/errors.ts';
import { LinkRefused } from './link-refused.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';

/** Contract: the embed token lives 5 minutes. */
export const EMBED_TOKEN_TTL_MS = 5 * 60_000;
/** A setup link stays valid for 7 days (it is sent to a person, not redeemed by a machine)… */
export const SETUP_TOKEN_TTL_MS = 7 * 24 * 3_600_000;
/** …and for 30 minutes after it is first opened, in the browser that opened it (the owner fills in one form). */
export const SETUP_OPEN_WINDOW_MS = 30 * 60_000;
/** A browser session lasts 12 hours. */
export const SESSION_TTL_MS = 12 * 3_600_000;
export const EMBED_PAGES = ['dashboard', 'invoices', 'inventory', 'scheduling', 'search', 'pl', 'reports'] as const;
export type EmbedPage = (typeof EMBED_PAGES)[number];

const newToken = () => randomBytes(32).toString('base64url');
const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Roles that see one store (the one their sign-in named); the others see the whole tenant. */
export const STORE_SCOPED_ROLES: readonly UserRole[] = ['store_manager', 'supervisor', 'location_manager'];

/** Scopes of a signed-in tenant user: reading their tenant's data, and uploading and correcting its invoices. */
const SESSION_SCOPES = ['read', 'invoices:read', 'invoices:write', 'search:read', 'inventory:read', 'scheduling:read'] as const;

/** The principal a browser session acts as: confined to the user's tenant (and store-scoped roles to their store). */
export function sessionPrincipal(view: SessionView): Principal {
  return {
    keyId: `session:${view.userId}`,
    keyPrefix: 'session',
    scopes: new Set(SESSION_SCOPES),
    partner: { id: view.partnerId, name: view.partnerName, tier: view.tier, legacyPlan: view.legacyPlan },
    defaultTenantId: view.tenantId,
    session: { userId: view.userId, tenantId: view.tenantId, storeId: STORE_SCOPED_ROLES.includes(view.role) ? view.storeId : null },
  };
}

export interface SessionView {
  userId: string;
  email: string;
  name: string;
  role: UserRole;
  storeId: string | null;
  tenantId: string;
  tenantName: string;
  partnerId: string;
  partnerName: string;
  tier: Tier;
  legacyPlan: LegacyPlan | null;
}

/**
 * Sub-tenants and the ways people get into them: the one-time setup link of a new tenant, one-time embed
 * sign-in links (5 minutes, usable once: redemption is one conditional UPDATE, so of two concurrent
 * redemptions exactly one wins) and the browser sessions they open (random cookie token, stored hashed).
 */
export function createProvisioningService(db: Kysely<DB>, deps: { tenants: TenantsService; publicUrl: () => string; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function issue(kind: 'embed' | 'setup', tenantId: string, ttlMs: number, extra: { userId?: string; page?: string } = {}) {
    const token = newToken();
    await insertOneTimeToken(db, {
      tokenHash: hash(token),
      kind,
      tenantId,
      userId: extra.userId ?? null,
      page: extra.page ?? null,
      expiresAt: new Date(now().getTime() + ttlMs),
    });
    return token;
  }

  async function openSession(userId: string, tenantId: string): Promise<{ sessionToken: string; maxAgeSeconds: number }> {
    const sessionToken = newToken();
    await insertSession(db, { tokenHash: hash(sessionToken), userId, tenantId, expiresAt: new Date(now().getTime() + SESSION_TTL_MS) });
    return { sessionToken, maxAgeSeconds: SESSION_TTL_MS / 1000 };
  }

  /**
   * The setup link's row if this browser may use it now: not unknown, used or expired, and once opened, only with the
   * binder of the first opening and within its window (`anyBrowser`: whichever browser asks). LinkRefused otherwise.
   */
  async function liveSetup(token: string, binder: string | undefined, at: Date, options: { anyBrowser?: boolean } = {}): Promise<OneTimeTokenRow> {
    const row = await findOneTimeToken(db, hash(token));
    if (!row || row.kind !== 'setup') throw new LinkRefused('unknown', 'setup');
    if (row.usedAt) throw new LinkRefused('used', 'setup');
    if (row.expiresAt <= at || (row.binderHash !== null && openUntil(row) <= at)) throw new LinkRefused('expired', 'setup');
    if (row.binderHash !== null && !options.anyBrowser && !(binder && sameHash(row.binderHash, hash(binder)))) {
      throw new LinkRefused('elsewhere', 'setup');
    }
    return row;
  }

  /** Until when an opened setup link works: the window after its first opening, or its expiry if that comes first. */
  function openUntil(row: OneTimeTokenRow): Date {
    const end = row.firstViewedAt ? row.firstViewedAt.getTime() + SETUP_OPEN_WINDOW_MS : row.expiresAt.getTime();
    return new Date(Math.min(end, row.expiresAt.getTime()));
  }

  async function setupTenant(row: OneTimeTokenRow): Promise<TenantRow> {
    const tenant = await findTenant(db, row.tenantId);
    if (!tenant) throw new LinkRefused('unknown', 'setup');
    return tenant;
  }

  /** Why a token that did not redeem was refused. */
  async function refusal(token: string): Promise<LinkRefused> {
    const row = await findOneTimeToken(db, hash(token));
    if (!row) return new LinkRefused('unknown');
    return new LinkRefused(row.usedAt ? 'used' : 'expired');
  }

  return {
    /** A sub-tenant of the partner and its one-time onboarding link. */
    async createTenant(
      principal: Principal,
      input: { name: string; email: string; maxLocations?: number | null; ssoProvider?: SsoProvider | null },
    ): Promise<{ tenantId: string; setupUrl: string; tenant: TenantRow }> {
      const name = input.name.trim();
      if (!name || name.length > 200) throw InvalidInput.field('name', 'must be 1 to 200 characters');
      const email = input.email.trim().toLowerCase();
      if (!EMAIL.test(email) || email.length > 320) throw InvalidInput.field('email', 'must be an email address');
      const maxLocations = input.maxLocations ?? 1;
      if (!(Number.isInteger(maxLocations) && maxLocations >= 1 && maxLocations <= 10_000)) {
        throw InvalidInput.field('maxLocations', 'must be a whole number from 1 to 10000');
      }
      const tenant = await insertTenant(db, principal.partner.id, { name, email, maxLocations, ssoProvider: input.ssoProvider ?? null });
      const token = await issue('setup', tenant.id, SETUP_TOKEN_TTL_MS);
      return { tenantId: tenant.id, setupUrl: `${deps.publicUrl()}/setup/${token}`, tenant };
    },

    /**
     * A new setup link for a tenant whose setup is not done (a link lost, expired, or opened first by someone else):
     * every earlier unused link of the tenant stops working. Conflict once the setup was confirmed.
     */
    async reissueSetupLink(tenantId: string): Promise<{ tenantId: string; setupUrl: string }> {
      const { completed } = await revokeSetupLinks(db, tenantId, now());
      if (completed) throw new Conflict('the tenant is already set up: its setup link was used');
      const token = await issue('setup', tenantId, SETUP_TOKEN_TTL_MS);
      return { tenantId, setupUrl: `${deps.publicUrl()}/setup/${token}` };
    },

    /**
     * Provisions (or updates) the tenant's user with this email, scoped to the store with the partner's
     * externalStoreId, and returns a one-time sign-in URL to `page`.
     */
    async createEmbedSession(
      tenantId: string,
      input: { email: string; name: string; role?: string | null; externalStoreId: string; page?: string | null },
    ): Promise<{ embedToken: string; embedUrl: string }> {
      const email = input.email.trim().toLowerCase();
      if (!EMAIL.test(email) || email.length > 320) throw InvalidInput.field('email', 'must be an email address');
      const name = optionalText(input.name, 'name', 200);
      if (!name) throw InvalidInput.field('name', 'must not be empty');
      const role = (input.role ?? 'store_manager') as UserRole;
      if (!USER_ROLES.includes(role)) throw InvalidInput.field('role', `must be one of ${USER_ROLES.join(', ')}`);
      const page = (input.page ?? 'dashboard') as EmbedPage;
      if (!EMBED_PAGES.includes(page)) throw InvalidInput.field('page', `must be one of ${EMBED_PAGES.join(', ')}`);
      const externalStoreId = input.externalStoreId.trim();
      if (!externalStoreId) throw InvalidInput.field('externalStoreId', 'must not be empty');
      const store = await findStoreByExternalId(db, tenantId, externalStoreId);
      if (!store) {
        throw new NotFound(`store with externalStoreId "${externalStoreId}" (create it with POST /api/v1/partner/tenants/{tenantId}/stores)`);
      }
      const user = await upsertUser(db, { tenantId, email, name, role, storeId: store.id });
      const token = await issue('embed', tenantId, EMBED_TOKEN_TTL_MS, { userId: user.id, page });
      return { embedToken: token, embedUrl: `${deps.publicUrl()}/embed/session?token=${encodeURIComponent(token)}` };
    },

    /** Redeems an embed link: a new session (its cookie token) and the page to land on; LinkRefused otherwise. */
    async openEmbedLink(token: string): Promise<{ sessionToken: string; page: EmbedPage; maxAgeSeconds: number }> {
      const at = now();
      const row = await redeemOneTimeToken(db, 'embed', hash(token), at);
      if (!row?.userId) throw await refusal(token);
      return { ...(await openSession(row.userId, row.tenantId)), page: (row.page ?? 'dashboard') as EmbedPage };
    },

    /**
     * A person who signed in through the tenant's own identity provider: the user with that email (created as
     * a tenant-wide `executive` the first time) and a new session.
     */
    async signInFederated(tenantId: string, identity: { email: string | null; name: string | null }) {
      const email = identity.email?.trim().toLowerCase();
      if (!email || !EMAIL.test(email)) throw new SsoSignInError('missing_email', 'the identity provider did not send an email address for this person');
      const existing = (await listUsersOfTenants(db, [tenantId])).find((u) => u.email.toLowerCase() === email);
      const user = existing ?? (await upsertUser(db, { tenantId, email, name: identity.name?.trim() || email, role: 'executive', storeId: null }));
      return openSession(user.id, tenantId);
    },

    /** The session of a cookie token, if it is live. */
    async session(sessionToken: string | undefined): Promise<SessionView | null> {
      if (!sessionToken) return null;
      const row = await findSession(db, hash(sessionToken), now());
      if (!row) return null;
      const { expiresAt: _, ...view } = row;
      return view;
    },

    /**
     * Opens a setup link in a browser (its page). The first opening binds the link to that browser: `binder` is then a
     * new random value for the browser's cookie (only its hash is kept). Later openings and the form need that cookie,
     * within SETUP_OPEN_WINDOW_MS of the first opening. LinkRefused otherwise.
     */
    async openSetup(token: string, binder: string | undefined): Promise<{ tenant: TenantRow; binder?: string }> {
      const at = now();
      let row = await liveSetup(token, binder, at);
      let fresh: string | undefined;
      if (row.binderHash === null) {
        fresh = newToken();
        const bound = await bindOneTimeToken(db, 'setup', row.tokenHash, hash(fresh), at);
        if (!bound) {
          await liveSetup(token, binder, at); // another opening bound it first: refused, saying why
          throw new LinkRefused('elsewhere', 'setup');
        }
        row = bound;
      }
      return { tenant: await setupTenant(row), binder: fresh };
    },

    /**
     * The tenant of a setup link this browser may open or has opened (`opened`), without binding it: a GET shows
     * the page that opens it, so a mail scanner or link preview fetching the link uses nothing up.
     */
    async previewSetup(token: string, binder: string | undefined): Promise<{ tenant: TenantRow; opened: boolean }> {
      const row = await liveSetup(token, binder, now());
      return { tenant: await setupTenant(row), opened: row.binderHash !== null };
    },

    /**
     * Whether a setup link can still be opened at all (not unknown, used or expired), without opening it: for a
     * request that cannot keep the browser's cookie (a page in a cross-site frame).
     */
    async checkSetup(token: string): Promise<void> {
      await liveSetup(token, undefined, now(), { anyBrowser: true });
    },

    /** The tenant of a setup link this browser opened (its form), without using it up. */
    async setupView(token: string, binder: string | undefined): Promise<{ tenant: TenantRow }> {
      const row = await liveSetup(token, binder, now());
      if (row.binderHash === null) throw new LinkRefused('unopened', 'setup');
      return { tenant: await setupTenant(row) };
    },

    /** Completes onboarding (the owner may correct the name) in the browser that opened the link: the link is used up. */
    async completeSetup(token: string, binder: string | undefined, input: { name?: string }): Promise<{ tenant: TenantRow }> {
      const name = input.name?.trim();
      if (name !== undefined && (!name || name.length > 200)) throw InvalidInput.field('name', 'must be 1 to 200 characters');
      const at = now();
      const row =
        binder === undefined
          ? undefined
          : await redeemOneTimeToken(db, 'setup', hash(token), at, { binderHash: hash(binder), openedAfter: new Date(at.getTime() - SETUP_OPEN_WINDOW_MS) });
      if (!row) {
        await liveSetup(token, binder, at); // refused, saying why
        throw new LinkRefused('used', 'setup'); // used meanwhile
      }
      const tenant = name ? await renameTenant(db, row.tenantId, name) : await findTenant(db, row.tenantId);
      return { tenant: tenant! };
    },
  };
}
export type ProvisioningService = ReturnType<typeof createProvisioningService>;
