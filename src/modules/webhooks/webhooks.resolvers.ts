import { type AccessRule, requireAccess } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import type { Webhook } from './webhooks.service.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

// Webhooks are sold with the Extraction + Storage and Platform Embed tiers (the contract's tier table).
const WEBHOOKS: AccessRule = { scope: 'webhooks:write', tiers: ['storage', 'embed'], partnerLevel: true };

export const webhookResolvers = {
  Query: {
    webhooks: (_: unknown, __: unknown, ctx: RequestContext) => {
      requireAccess(ctx.principal, WEBHOOKS);
      return ctx.services.webhooks.list(ctx.principal);
    },
    webhook: (_: unknown, args: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, WEBHOOKS);
      return ctx.services.webhooks.find(ctx.principal, args.id);
    },
  },
  Mutation: {
    registerWebhook: (_: unknown, args: { url: string; events: string[]; tenantId?: string | null }, ctx: RequestContext) => {
      requireAccess(ctx.principal, WEBHOOKS);
      return ctx.services.webhooks.register(ctx.principal, args);
    },
    deleteWebhook: (_: unknown, args: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, WEBHOOKS);
      return ctx.services.webhooks.delete(ctx.principal, args.id);
    },
    rotateWebhookSecret: (_: unknown, args: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, WEBHOOKS);
      return ctx.services.webhooks.rotateSecret(ctx.principal, args.id);
    },
    replayWebhookDelivery: (_: unknown, args: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, WEBHOOKS);
      return ctx.services.webhooks.replayDelivery(ctx.principal, args.id);
    },
  },
  Webhook: {
    deliveries: (webhook: Webhook, args: { first?: number | null }, ctx: RequestContext) =>
      ctx.services.webhooks.deliveries(ctx.principal, webhook.id, args.first ?? 20),
  },
} satisfies Resolvers;
