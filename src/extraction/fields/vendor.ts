// Vendor / merchant name: the top-of-document party that is not the buyer.
import { spanX, type Line } from './layout.ts';
import { stripAccents } from './dates.ts';

export const LEGAL_FORM =
  /\b(GmbH|AG|KG|OHG|UG|e\.?K\.?|SARL|SAS|SASU|SA|EURL|SNC|Ltd\.?|Limited|LLC|L\.L\.C\.|Inc\.?|Corp\.?|Corporation|Co\.?|PLC|LLP|S\.?A\.?|S\.?L\.?|S\.?p\.?A\.?|S\.?r\.?l\.?|B\.?V\.?|N\.?V\.?|Oy|AB|ApS|A\/S|SIA|AS|UAB|SDN\.?\s?BHD\.?|BHD|S\/B|Pte\.?\s?Ltd|ENTERPRISE|TRADING|RESTAURANT|PHARMACY|HARDWARE|BOOKSTORES?|STORES?|MARKET|CAFE|HOTEL)\b/i;
const SELLER = /\b(seller|vendor|from|supplier|vendeur|fournisseur|émetteur|verkäufer|lieferant|absender|rechnungssteller|pārdevējs)\b/i;
const BUYER = /\b(bill(ed)? to|sold to|ship(ped)? to|deliver(ed)? to|customer|client|buyer|acheteur|destinataire|livraison|kunde|rechnungsempfänger|lieferadresse|empfänger|pircējs|z\.\s?hd)\b/i;
const NOT_NAME =
  /\b(invoice|facture|rechnung|receipt|quittung|kvīts|čeks|page|seite|date|datum|tel|phone|fax|e-?mail|www|http|iban|bic|swift|siret|siren|tva|vat|ust|mwst|gst|pvn|reg|nr|no\.|n°|total|summ?e|subtotal|amount|qty|description|kasieris|cashier|order|bestell|tax|copy|original|logo)\b/i;
const ADDRESS = /\b(\d{4,6}\s+[A-ZÀ-ž]|street|st\.|road|rd\.?|avenue|ave|jalan|jln|taman|rue|straße|strasse|str\.|iela|allee|weg|platz|blvd|lot|no\.\s?\d|floor|level|batiment|cedex|bp)\b/i;

export interface NameCandidate {
  name: string;
  score: number;
  line: Line;
}

const clean = (s: string) =>
  s
    .replace(/^\s*(logo|von|from|de|vendeur|seller)\s*[:\-]?\s+/i, '')
    .replace(/[|•·]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Cuts a segment after its legal-form suffix ("Kraxi GmbH · Flugzeugallee 17" → "Kraxi GmbH"). */
function segments(line: Line): string[] {
  const parts = line.text.split(/\s{3,}|\s[·•|]\s|\s[-–]\s(?=\S)/);
  const out: string[] = [];
  for (const p of parts) {
    const m = p.match(new RegExp(`^(.*?${LEGAL_FORM.source})(?:[\\s,].*)?$`, 'i'));
    if (m && m[1]!.length < p.length && /\d|capital|au |,/.test(p.slice(m[1]!.length))) out.push(m[1]!);
    out.push(p);
  }
  return out.map(clean).filter((s) => s.length >= 2);
}

const norm = (s: string) => stripAccents(s).toLowerCase().replace(/[^a-z0-9]+/g, '');

/** Scores candidate names on the first page; `mode` receipt favours the very first lines. */
export function nameCandidates(lines: Line[], mode: 'invoice' | 'receipt'): NameCandidate[] {
  const first = lines.filter((l) => l.page === lines[0]?.page);
  if (!first.length) return [];
  const top = Math.min(...first.map((l) => l.y));
  const bottom = Math.max(...first.map((l) => l.y + l.height));
  const span = Math.max(1, bottom - top);
  const heights = first.map((l) => l.height).sort((a, b) => a - b);
  const medH = heights[Math.floor(heights.length / 2)] ?? 1;
  const all = lines.map((l) => l.text).join('\n');
  const domains = [...all.matchAll(/(?:@|www\.)([a-z0-9-]{3,})\./gi)].map((m) => norm(m[1]!));
  const at = (re: RegExp) =>
    first.flatMap((l) => {
      const m = l.text.match(re);
      return m ? [{ x: spanX(l, m.index!, m.index! + m[0].length).x0, y: l.y, line: l }] : [];
    });
  const buyerCols = at(BUYER);
  const sellerLines = at(SELLER);
  const out: NameCandidate[] = [];
  first.forEach((line, i) => {
    const rel = (line.y - top) / span;
    if (mode === 'receipt' && i > 8) return;
    if (mode === 'invoice' && rel > 0.4 && !LEGAL_FORM.test(line.text)) return;
    for (const name of segments(line)) {
      const letters = name.replace(/[^A-Za-zÀ-ž]/g, '').length;
      if (letters < 2 || letters / name.length < 0.5) continue;
      let s = 0;
      const idx = line.text.indexOf(name);
      const x = idx >= 0 ? spanX(line, idx, idx + name.length).x0 : line.x;
      if (LEGAL_FORM.test(name)) s += 3;
      if (mode === 'receipt') s += Math.max(0, 4 - i * 0.8);
      else s += rel < 0.15 ? 2 : rel < 0.4 ? 1 : rel > 0.85 ? 0.3 : 0;
      if (NOT_NAME.test(name) && !LEGAL_FORM.test(name)) s -= 4;
      if (/:/.test(name)) s -= 2;
      if (ADDRESS.test(name) || /\d{3,}/.test(name)) s -= 3;
      if (/@|\.(com|de|fr|lv|my|net|org)\b/i.test(name)) s -= 4;
      if (line.height > medH * 1.3) s += 1;
      const n = norm(name);
      const repeats = lines.filter((l) => l !== line && norm(l.text).includes(n)).length;
      if (n.length >= 4 && repeats > 0) s += 1.5;
      if (sellerLines.some((sl) => sl.y < line.y && line.y - sl.y < medH * 4 && Math.abs(sl.x - x) < medH * 3 && sl.line !== line)) s += 2.5;
      if (buyerCols.some((b) => b.y < line.y && line.y - b.y < medH * 8 && Math.abs(b.x - x) < medH * 3)) s -= 4;
      if (BUYER.test(name) || new RegExp(`^\\s*${SELLER.source}\\s*:?\\s*$`, 'i').test(name) || /^(seller|vendor|supplier|from)\b/i.test(name)) s -= 3;
      const plainName = s > -1 && !ADDRESS.test(name) && !NOT_NAME.test(name);
      const words = name.split(/\s+/).slice(0, 2).map(norm);
      if (plainName && domains.some((d) => d.length >= 3 && words.some((w) => w.length >= 3 && (d.startsWith(w) || w.startsWith(d))))) s += 4;
      if (mode === 'invoice' && /^[A-ZÀ-Ž0-9 &'".,()-]+$/.test(name) && name.split(' ').length <= 5) s += 0.3;
      out.push({ name, score: s, line });
    }
  });
  return out.sort((a, b) => b.score - a.score);
}

export function pickName(lines: Line[], mode: 'invoice' | 'receipt'): { name: string | null; confidence: number } {
  const [best, second] = nameCandidates(lines, mode);
  if (!best || best.score <= 0) return { name: null, confidence: 0 };
  const margin = best.score - (second?.score ?? 0);
  const conf = Math.min(95, 35 + best.score * 6 + margin * 5) * (best.line.confidence / 100);
  return { name: best.name, confidence: Math.max(5, Math.round(conf)) };
}
