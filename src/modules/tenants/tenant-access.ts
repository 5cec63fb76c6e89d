import { type AccessRule, requireAccess } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';

// How resolvers of tenant data check access and find the tenant(s) they act on.

/** Checks the rule, then the tenant acted on: the given one (the caller's) or the caller's default. */
export async function tenantFor(ctx: RequestContext, args: { tenantId?: string | null }, rule: AccessRule): Promise<string> {
  requireAccess(ctx.principal, rule);
  return ctx.services.tenants.resolve(ctx.principal, args.tenantId);
}

/** Checks the rule, then the tenants a record looked up by id may belong to (given: only that one). */
export async function tenantsFor(ctx: RequestContext, rule: AccessRule, tenantId?: string | null): Promise<string[]> {
  requireAccess(ctx.principal, rule);
  return ctx.services.tenants.scope(ctx.principal, tenantId);
}
