import type { Kysely } from 'kysely';
import { listTenants } from '../tenants/tenants.queries.ts';
import type { DB, DocumentKind, Tier } from '../../platform/db/types.ts';
import { partnerPrice } from '../partners/partners.queries.ts';
import { insertUsageRecord, usageTotals } from './usage.queries.ts';
import type { Principal } from '../../platform/auth/authenticate.ts';
import { Forbidden, InvalidInput } from '../../platform/errors.ts';
import type { RateDecision, RateLimiter } from '../../platform/rate-limit/limiter.ts';
import { type Channel, ratePolicy } from '../../platform/rate-limit/policy.ts';

/** List prices per processed document (the contract's tier table); Platform Embed is priced per partner. */
export const LIST_PRICE_USD: Record<Tier, number> = { extraction: 0.5, storage: 0.85, embed: 0.85 };

export interface UsageSummary {
  period: { start: Date; end: Date };
  currency: 'USD';
  documents: number;
  pages: number;
  amount: number;
  byTenant: Array<{ tenantId: string; tenantName: string; documents: number; pages: number; amount: number }>;
  byKind: Array<{ kind: string; documents: number; pages: number; amount: number }>;
  byChannel: Array<{ channel: string; documents: number; amount: number }>;
}

const money = (n: number) => Math.round(n * 10_000) / 10_000;

/** The calendar month (UTC) `YYYY-MM`, or the one containing `at`: [start, end). */
export function monthPeriod(at: Date, period?: string | null): { start: Date; end: Date } {
  let y = at.getUTCFullYear();
  let m = at.getUTCMonth();
  if (period != null) {
    const match = /^(\d{4})-(\d{2})$/.exec(period);
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 12) throw InvalidInput.field('period', `must be a month YYYY-MM (got "${period}")`);
    y = Number(match[1]);
    m = Number(match[2]) - 1;
  }
  return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
}

/** Who a processed document is charged to: the partner (at its tier or custom price) and the key that sent it. */
export interface Payer {
  keyId: string | null;
  partner: { id: string; tier: Tier };
}

export function createUsageService(db: Kysely<DB>, deps: { rateLimits: RateLimiter; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function summary(partnerId: string, period: { start: Date; end: Date }): Promise<UsageSummary> {
    const rows = await usageTotals(db, partnerId, period.start, period.end);
    const tenants = await listTenants(db, partnerId);
    const group = <K extends string>(key: (r: (typeof rows)[number]) => K) => {
      const out = new Map<K, { documents: number; pages: number; amount: number }>();
      for (const r of rows) {
        const g = out.get(key(r)) ?? { documents: 0, pages: 0, amount: 0 };
        out.set(key(r), { documents: g.documents + r.documents, pages: g.pages + r.pages, amount: money(g.amount + r.amount) });
      }
      return out;
    };
    const byTenant = group((r) => r.tenantId);
    return {
      period,
      currency: 'USD',
      documents: rows.reduce((a, r) => a + r.documents, 0),
      pages: rows.reduce((a, r) => a + r.pages, 0),
      amount: money(rows.reduce((a, r) => a + r.amount, 0)),
      byTenant: tenants.filter((t) => byTenant.has(t.id)).map((t) => ({ tenantId: t.id, tenantName: t.name, ...byTenant.get(t.id)! })),
      byKind: [...group((r) => r.kind)].map(([kind, g]) => ({ kind, ...g })),
      byChannel: [...group((r) => r.channel)].map(([channel, g]) => ({ channel, documents: g.documents, amount: g.amount })),
    };
  }

  return {
    /**
     * Meters one processed document (file) at the partner's price: the custom price when set, else the tier's
     * list price. Idempotent per document. A Principal is a Payer; a document recovered after a crash names its own.
     */
    async record(payer: Payer, doc: { tenantId: string; documentId: string; kind: DocumentKind; pages: number | null; channel: Channel }) {
      const custom = await partnerPrice(db, payer.partner.id);
      await insertUsageRecord(db, {
        partnerId: payer.partner.id,
        tenantId: doc.tenantId,
        apiKeyId: payer.keyId,
        documentId: doc.documentId,
        kind: doc.kind,
        pages: Math.max(1, doc.pages ?? 1),
        channel: doc.channel,
        tier: payer.partner.tier,
        price: custom ?? LIST_PRICE_USD[payer.partner.tier],
        // The month it counts in is read by the same clock as the periods it is reported in.
        createdAt: now(),
      });
    },

    /** Documents, pages and charges of a month (default: the current one), per tenant, kind and channel. */
    usage: (principal: Principal, period?: string | null) => summary(principal.partner.id, monthPeriod(now(), period)),

    /** GET /api/partner/usage: the legacy plan's period, requests and documents, limits and what is left. */
    async legacy(principal: Principal, decision: RateDecision | undefined) {
      const plan = principal.partner.legacyPlan;
      if (!plan) throw new Forbidden('usage is reported for legacy plans; this partner has none');
      const period = monthPeriod(now());
      const policy = ratePolicy(principal, 'legacy' satisfies Channel);
      const requests = await deps.rateLimits.monthRequests(principal.partner.id);
      const documents = (await usageTotals(db, principal.partner.id, period.start, period.end)).reduce((n, r) => n + r.documents, 0);
      return {
        plan,
        period,
        usage: { requests, documents },
        limits: { perMinute: policy.perMinute, perMonth: policy.perMonth },
        remaining: {
          perMinute: decision?.remaining ?? policy.perMinute,
          perMonth: policy.perMonth === null ? null : Math.max(0, policy.perMonth - requests),
        },
      };
    },
  };
}
export type UsageService = ReturnType<typeof createUsageService>;
