// Vendor / merchant name: the top-of-document party that is not the buyer.
import { spanX, type Line } from './layout.ts';
import { stripAccents } from './dates.ts';

export const LEGAL_FORM =
  /\b(GmbH|AG|KG|OHG|UG|e\.?K\.?|SARL|SAS|SASU|SA|EURL|SNC|Ltd\.?|Limited|LLC|L\.L\.C\.|Inc\.?|Corp\.?|Corporation|Co\.?|PLC|LLP|S\.?A\.?|S\.?L\.?|S\.?p\.?A\.?|S\.?r\.?l\.?|B\.?V\.?|N\.?V\.?|Oy|AB|ApS|A\/S|SIA|AS|UAB|SDN\.?\s?BHD\.?|BHD|S\/B|Pte\.?\s?Ltd|ENTERPRISE|TRADING|RESTAURANT|PHARMACY|HARDWARE|BOOKSTORES?|STORES?|MARKET|CAFE|HOTEL|(?<=&\s?)COMPANY)\b(?!\.\p{L})/iu;
const SELLER = /\b(seller|vendor|from|supplier|vendeur|fournisseur|émetteur|verkäufer|lieferant|absender|rechnungssteller|pārdevējs)\b/i;
const BUYER =
  /\b(bill(ed)? to|sold to|ship(ped)? to|deliver(ed)? to|customer|client|buyer|acheteur|destinataire|livraison|kunde|rechnungsempfänger|lieferadresse|empfänger|pircējs|z\.\s?hd)\b/i;
const NOT_NAME =
  /\b(invoice|facture|rechnung|receipt|quittung|kvīts|čeks|page|seite|date|datum|tel|phone|fax|e-?mail|www|http|iban|bic|swift|siret|siren|tva|vat|ust|mwst|gst|pvn|reg|nr|no\.|n°|total|summ?e|subtotal|amount|qty|description|kasieris|cashier|order|bestell|tax|copy|original|logo)\b/i;
export const ADDRESS =
  /\b(\d{4,6}\s+[A-ZÀ-ž]|street|st\.|road|rd\.?|avenue|ave|jalan|jln|taman|rue|straße|strasse|str\.|iela|allee|weg|platz|blvd|lot|no\.\s?\d|floor|level|batiment|cedex|bp)\b/i;

/** A legal form written before a quoted name (SIA "Ozols", AS "X"); OCR reads the closing quote as ™ ® ° too. */
const PREFIX_FORM_NAME = /\b(?:SIA|AS|UAB|OÜ|A\/S)\s?(?:["“”„«'][^"“”„«»™®°]{2,40}(?:["“”»'™®°]|$)|[^\s"“”„«»™®°][^"“”„«»™®°]{1,39}["“”»™®°])/;

/** A VAT number printed at the end of the name's line, with or without its label: "… PVN LV40003012345", "VAT DE123456789". */
const TAX_ID_TAIL = /(?<=[\p{L}\d"”»'.]|\s)\s*(?:\p{Lu}{2,4}\.?\s*)?\p{Lu}{2}\s?\d{8,12}\s*$/u;

/** OCR confusions inside legal forms and upper-case words: "Sla"/"S1A" → SIA, "S0N BHD" → SDN BHD, "MEl" → MEI, "D.1.Y." → D.I.Y. */
export function fixNameOcr(s: string): string {
  return (
    s
      .replace(/(?<![\p{L}\d])[S5][Il1|][A4](?=\s?["“”„«']|\s+\p{Lu})/giu, 'SIA')
      // SIA glued to a name whose opening quote was lost: 'SIAZIEDS 2001"' → 'SIA ZIEDS 2001"'.
      .replace(/(?<![\p{L}\d])SIA(?=\p{Lu}[^"“”„«]{1,38}["”»™®°])/gu, 'SIA ')
      // A letter-spaced quoted name: 'SIA "O ZOLS"' → 'SIA "OZOLS"'.
      .replace(/(?<=\b(?:SIA|AS|UAB)\s?["“„«]\p{Lu}) (?=\p{Lu}{4})/gu, '')
      .replace(/\bS[O0]N(\.?\s?BHD)\b/gi, 'SDN$1')
      .split(' ')
      .map((w) =>
        (w.match(/\p{Lu}/gu)?.length ?? 0) >= 2 && !/(?!l)\p{Ll}/u.test(w) ? w.replace(/(?<=\p{Lu}\.?)[l1|](?=\.?\p{Lu})|(?<=\p{Lu})l(?![\p{L}\d])/gu, 'I') : w,
      )
      .join(' ')
  );
}

/** Not a name: runs of one repeated letter or very few distinct letters (OCR of separator rows "^^^^"). */
const looksLikeNoise = (s: string) => {
  const letters = s.replace(/[^\p{L}]/gu, '').toUpperCase();
  return /(\p{L})\1\1/u.test(letters) || (letters.length >= 8 && new Set(letters).size / letters.length < 0.35);
};

export interface NameCandidate {
  name: string;
  score: number;
  line: Line;
}

const clean = (s: string) =>
  s
    .replace(/^\s*(logo|von|from|de|vendeur|seller)\s*[:\-]?\s+/i, '')
    .replace(/[|•·™®°]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Cuts a segment after its legal-form suffix ("Brenner GmbH · Lindenweg 4" → "Brenner GmbH"); on receipts also a
 * prefix legal form with its quoted name, and a letters-only line stays whole across wide OCR gaps.
 */
function segments(line: Line, mode: 'invoice' | 'receipt'): string[] {
  const read = line.confidence < 100 ? fixNameOcr(line.text) : line.text;
  const text = mode === 'receipt' ? read.replace(TAX_ID_TAIL, '') : read;
  const whole = mode === 'receipt' && !/\d/.test(text);
  // A receipt's "&" never starts a name: it joins the initial OCR set apart from it ("3   & KAY NOODLE CAFE").
  const split = mode === 'receipt' ? /\s{3,}(?!&)|\s[·•|]\s|\s[-–]\s(?=\S)/ : /\s{3,}|\s[·•|]\s|\s[-–]\s(?=\S)/;
  const parts = whole ? [text.replace(/\s{3,}/g, ' ')] : text.split(split);
  const out: string[] = [];
  const quoted = mode === 'receipt' ? text.match(PREFIX_FORM_NAME) : null;
  if (quoted) out.push(quoted[0]);
  for (const p of parts) {
    // A receipt name may hold a trade word before its legal form ("THE MARKET (JOHOR) SDN BHD (123456-X)"): there the
    // cut is at the last legal form before the number.
    const lazy = p.match(new RegExp(`^(.*?${LEGAL_FORM.source})(?:[\\s,].*)?$`, 'iu'));
    const greedy = mode === 'receipt' ? p.match(new RegExp(`^(.*${LEGAL_FORM.source})(?:[\\s,].*)?$`, 'iu')) : null;
    const m = greedy && /\d/.test(p.slice(greedy[1]!.length)) ? greedy : lazy;
    if (m && m[1]!.length < p.length && /\d|capital|au |,/.test(p.slice(m[1]!.length))) out.push(m[1]!);
    out.push(p);
  }
  return out.map(clean).filter((s) => s.length >= 2);
}

const norm = (s: string) =>
  stripAccents(s)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

/** A branch or till number before a receipt's name ("#000417 NAME SDN BHD"). */
export const BRANCH_NUMBER = /^\s*#\d+\s+(?=\p{L})/u;
/** A bracketed registration number ("(555123-K)", "CO. NO. (555123-K)") anywhere, or a branch number. */
const RECEIPT_IDS = new RegExp(
  `\\s*(?:(?:co(?:mpany)?|reg(?:istration)?)\\.?\\s?no\\.?\\s*:?\\s*)?[([]\\s*\\d{4,}\\s*-?\\s*[A-Z0-9]{0,2}\\s*[)\\]]\\s*|${BRANCH_NUMBER.source}`,
  'giu',
);

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
    for (const name of segments(line, mode)) {
      // A receipt's name line may carry the company's registration number or the till's branch number
      // ("#000417 NAME (M) Sdn Bhd (123456-X)"): they are no part of the name's letters or digits.
      const core = mode === 'receipt' ? name.replace(RECEIPT_IDS, ' ').trim() : name;
      const letters = core.replace(/[^A-Za-zÀ-ž]/g, '').length;
      if (letters < 2 || letters / core.length < 0.5) continue;
      let s = 0;
      const quotedName = mode === 'receipt' && PREFIX_FORM_NAME.test(name);
      const idx = line.text.indexOf(name);
      const x = idx >= 0 ? spanX(line, idx, idx + name.length).x0 : line.x;
      if (LEGAL_FORM.test(name)) s += 3;
      if (mode === 'receipt') s += Math.max(0, 4 - i * 0.8);
      else s += rel < 0.15 ? 2 : rel < 0.4 ? 1 : rel > 0.85 ? 0.3 : 0;
      // On a receipt a store name may hold a word like "total"; a line with digits and such a word is not a name.
      if (NOT_NAME.test(name) && !LEGAL_FORM.test(name) && (mode === 'invoice' || /\d/.test(name) || !/^[\p{Lu}\s&'.-]+$/u.test(name))) s -= 4;
      if (looksLikeNoise(name)) s -= 5;
      if (line.confidence < 30) s -= 2;
      if (quotedName) s += 1.5;
      // A receipt line with a money amount is an item or a total, not the merchant.
      if (mode === 'receipt' && /\d[.,]\d{2}(?!\d)/.test(line.text)) s -= 3;
      // OCR fragments: hardly any letters, or mostly one-character tokens ("LN I | a").
      const tokens = name.split(/\s+/);
      if (letters < 4 || tokens.filter((t) => t.length <= 1).length * 2 > tokens.length) s -= 2;
      if (/:/.test(name)) s -= 2;
      if (ADDRESS.test(name) || (/\d{3,}/.test(core) && !quotedName)) s -= 3;
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
