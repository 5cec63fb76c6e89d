// The merchant of a receipt: the header block's name candidates (vendor.ts) re-weighed for till slips — the legal
// entity ("… SDN BHD", SIA "…", "… GmbH") over a brand or branch line, never a document title ("TAX INVOICE",
// "RECEIPT") or a greeting — and cleaned of what OCR and the printer add around it (registration numbers, lost
// spaces in legal forms).
import type { Line } from './layout.ts';
import { LEGAL_FORM, nameCandidates } from './vendor.ts';

/** Document titles, greetings and slip furniture: never the merchant, even in capitals at the top. */
const NOT_MERCHANT =
  /\b(tax invoice|invoice|receipt|cash bill|cash sale|official|simplified|thank|welcome|customer|copy|kvīts|kvits|čeks|ceks|rēķins|rekins|quittung|beleg|reçu|ticket|facture|bill no|order|table|member)\b/i;
/** A company registration number printed after the name: "(728384-M)", "(1248717-W)", "Co. Reg. 21003B-K". */
const REG_NUMBER = /\s*[([]?\s*(?:co\.?\s*)?(?:reg(?:istration)?\.?\s*(?:no\.?)?\s*:?\s*)?\d{3,}[\dA-Z]*(?:-[A-Z0-9]{1,2})?\s*[)\]]?\s*$/i;

/** Undo OCR slips inside legal forms: "5dn Bhd" → "Sdn Bhd", "SDNBHD" and "PAPERSDN BHD" → "… SDN BHD". */
export function cleanMerchant(name: string): string {
  return name
    .replace(/\b5dn\b/gi, (m) => (m[1] === 'D' ? 'SDN' : 'Sdn'))
    .replace(/(?<=\S)(sdn\.?\s?bhd)/gi, ' $1')
    .replace(/\b(sdn\.?)(bhd)/gi, '$1 $2')
    .replace(/(\)|\p{L})(?=\(\d)/gu, '$1 ')
    .replace(REG_NUMBER, '')
    .replace(/[\s,:;-]+$/, '')
    .trim();
}

export function pickMerchant(lines: Line[]): { name: string | null; confidence: number } {
  const scored = nameCandidates(lines, 'receipt').map((c) => {
    const name = cleanMerchant(c.name);
    let score = c.score;
    const legal = LEGAL_FORM.test(name);
    if (legal) score += 2;
    if (NOT_MERCHANT.test(name) && !legal) score -= 4;
    if (name.replace(/[^\p{L}]/gu, '').length < 3) score -= 3;
    // A legal form alone ("SIA" cut from its quoted name) names nobody.
    if (name.replace(new RegExp(LEGAL_FORM.source, 'gi'), '').replace(/[^\p{L}]/gu, '').length < 2) score -= 5;
    return { name, score, line: c.line };
  });
  scored.sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || best.score <= 0 || !best.name) return { name: null, confidence: 0 };
  const margin = best.score - (second?.score ?? 0);
  const conf = Math.min(95, 35 + best.score * 5 + margin * 5) * (best.line.confidence / 100);
  return { name: best.name, confidence: Math.max(5, Math.round(conf)) };
}
