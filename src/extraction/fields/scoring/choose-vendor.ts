// The issuer's name as the learned scorer ranks the seller runs (weights in ./weights/vendorName.json); the name is
// then written as the issuer writes it (seller.ts `asWritten`). Its confidence is the model's probability of that
// name (several runs naming it add up), never above what the rules' evidence gives it: the model learned generated
// invoices, and a name no legal form, label or VAT id confirms stays one to check.
import type { InvoiceDoc } from '../doc.ts';
import { asWritten, pickSeller, sellerKey, type Seller } from '../seller.ts';
import { loadModel } from './load.ts';
import { rank, type RankingModel } from './model.ts';
import { VENDOR_FEATURES, vendorFeatures } from './vendor-features.ts';

export function chooseVendor(doc: InvoiceDoc, model: RankingModel = loadModel('vendorName', VENDOR_FEATURES)): Seller {
  const { cands, rows } = vendorFeatures(doc);
  const { p, none } = rank(model, rows);
  const byName = new Map<string, number>();
  cands.forEach((c, i) => byName.set(sellerKey(c.name), (byName.get(sellerKey(c.name)) ?? 0) + p[i]!));
  const i = p.reduce((bi, v, k) => (v > (p[bi] ?? -1) ? k : bi), -1);
  if (i < 0 || byName.get(sellerKey(cands[i]!.name))! <= none) return { name: null, confidence: 0, why: [] };
  const chosen = cands[i]!;
  // A run the model finds likely (a tenth of the chosen one's probability) may give the registered or mixed-case form.
  const likely = new Set(cands.filter((_, k) => p[k]! >= p[i]! / 10));
  const best = asWritten(cands, chosen, (c) => likely.has(c));
  const prob = byName.get(sellerKey(chosen.name))!;
  const ruled = pickSeller(doc, cands);
  const evidence = ruled.name !== null && sellerKey(ruled.name) === sellerKey(best.name) ? ruled.confidence : 75;
  return { name: best.name, confidence: Math.max(1, Math.min(99, evidence, Math.round(prob * 100))), why: best.why, line: best.line, at: best.at };
}
