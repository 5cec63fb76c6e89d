// The invoice's issuer, by evidence: the letterhead at the top of the first page, a seller label, a legal form
// (GmbH, SARL, S.L., B.V., Ltd…), the sender line over the address window, the block that holds the issuer's VAT id
// or IBAN, the registered name repeated in the footer, a web or mail domain that spells the name. Never a country,
// a street or city line, a contact line, a label, or a line of the buyer's block.
import { LANGUAGES } from '../lang/index.ts';
import { anyPhrase, fold, type LabelField } from '../lang/vocab.ts';
import type { InvoiceDoc } from './doc.ts';
import { spanX, type Line } from './layout.ts';
import { conceptsOf } from './scoring/concepts.ts';

export interface Seller {
  name: string | null;
  confidence: number;
  /** Evidence behind the name (for tests and tuning). */
  why: string[];
  /** The line and the offset of the run the name was read from (evidence.ts boxes it). */
  line?: Line;
  at?: number;
}

let forms: RegExp | null = null;
let countries: Set<string> | null = null;
const legalForms = () => (forms ??= new RegExp(anyPhrase(LANGUAGES.flatMap((l) => [...l.legalForms, 'sdn bhd', 'bhd', 's.a.s.', 'srl'])).source, 'g'));
const countryNames = () => (countries ??= new Set(LANGUAGES.flatMap((l) => l.countries).map(key)));
function key(s: string): string {
  return fold(s)
    .replace(/[^a-z0-9ßøæœ]+/g, ' ')
    .trim();
}
/** The same name in capitals and in mixed case ("GROSSHANDEL" / "Großhandel"). */
const looseKey = (s: string) => key(s).replace(/ß/g, 'ss');

/**
 * Where a legal form ends a name: a short one (KG, SA, BV) only in capitals, and never a unit after a quantity
 * ("Mehl, Sack 25 kg").
 */
export function legalFormIn(text: string): { index: number; end: number } | null {
  for (const m of fold(text).matchAll(legalForms())) {
    const raw = text.slice(m.index, m.index + m[0].length);
    const letters = raw.replace(/[^\p{L}]/gu, '');
    if (/\d\s*$/.test(text.slice(0, m.index))) continue;
    if (letters.length <= 2 && !raw.includes('.') && letters !== letters.toUpperCase()) continue;
    return { index: m.index, end: m.index + m[0].length };
  }
  return null;
}
const hasForm = (text: string) => legalFormIn(text) !== null;

const POSTCODE_CITY =
  /(?:^|[\s,])(?:[A-Z]{1,2}[- ]?)?\d{4,5}(?:-\d{3,4})?\s+\p{Lu}|\b\d{4}\s?[A-Z]{2}\b|\b[A-Z]{2}\s\d{5}\b|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\b[A-Z]{1,2}\d{1,2}[A-Z]?\s\d[A-Z]{2}\b/u;
const STREET =
  /\d+\s*[a-z]?\s*$|^\d+[a-z]?\s|(?<![\p{L}])(stra(ss|ß)e|str\.|weg|allee|platz|gasse|ring|damm|rue|avenue|av\.|boulevard|bd|chemin|place|calle|c\/|avda|plaza|paseo|via|viale|piazza|corso|straat|laan|plein|gracht|kade|rua|avenida|travessa|largo|street|st\.|road|rd\.|lane|drive|suite|floor|p\.?o\.? box|postfach|apartado|casella postale)(?![\p{L}])|\p{L}(stra(ss|ß)e|str\.|weg|straat|gasse|allee|laan|gracht)(?![\p{L}])/iu;
const CONTACT = /@|www\.|https?:|\b(tel|phone|fax|mobil|mobile|e-?mail|telefon|téléphone|tél|teléfono|telefono|telefoon)\b|\+\d{2}\s?\d/iu;

/** "Company name: Brenner GmbH" / "Raison sociale   Dupont SARL": the label of a form row, not part of the name. */
const NAME_LABEL = new RegExp(
  `^(?:${LANGUAGES.flatMap((l) => l.partyNameLabels)
    .sort((a, b) => b.length - a.length)
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})\\s*:?\\s+(?=\\p{L})`,
  'iu',
);

/** "Sold by: …", "Kontoinhaber: …": whatever labels the name, up to its colon (no digits: not a time or a ratio). */
const LABEL_COLON = /^[^:\d]{2,40}:\s*(?=\p{L})/u;

/**
 * A registered name after label words without a colon ("Account holder Brenner GmbH"): the name alone as another run,
 * when 1–3 leading words say whose name it is (a seller, an account holder, a director, a buyer) and a legal form follows.
 */
const PARTY_WORDS = ['seller', 'bank', 'director', 'buyer'] as const;
function afterLabelWords(r: { text: string; at: number }): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  const words = [...r.text.matchAll(/\S+/g)];
  for (let k = 1; k <= 3 && k < words.length - 1; k++) {
    const rest = r.text.slice(words[k]!.index);
    if (!/^\p{Lu}/u.test(rest) || !legalFormIn(rest) || !PARTY_WORDS.some((c) => conceptsOf(r.text.slice(0, words[k]!.index)).has(c))) continue;
    out.push({ text: rest, at: r.at + words[k]!.index });
  }
  return out;
}

/** Runs of a line that may hold a name: split at wide gaps and at "·", "|", " – " separators. */
function runs(line: Line): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  const re = /\s{3,}|\s[·•|–—]\s|\s-\s/g;
  let from = 0;
  for (const m of [...line.text.matchAll(re), null]) {
    const end = m ? m.index : line.text.length;
    const text = line.text.slice(from, end);
    const lead = text.length - text.trimStart().length;
    if (text.trim()) out.push({ text: text.trim(), at: from + lead });
    if (m) from = m.index + m[0].length;
  }
  return out;
}

/** Cuts what follows a legal form in the same run ("Brenner GmbH, Lindenweg 4" → "Brenner GmbH"). */
function cutAfterForm(text: string): string {
  const m = legalFormIn(text);
  if (!m) return text;
  const end = m.end;
  const rest = text.slice(end);
  return /^\s*[,(]|\s+\d/.test(rest) ? text.slice(0, end).replace(/[\s,]+$/, '') : text;
}

const labelsIn = (doc: InvoiceDoc, line: Line, from: number, to: number, fields?: LabelField[]) =>
  doc.hits[line.index]!.filter((h) => h.start < to && h.end > from && !h.weak && (!fields || fields.includes(h.field)));

export interface SellerCandidate {
  name: string;
  score: number;
  why: string[];
  form: boolean;
  line: Line;
  /** Offset of its run in the line's text. */
  at: number;
}

/** Every run that may name the issuer, scored by its evidence, best first. */
export function sellerCandidates(doc: InvoiceDoc): SellerCandidate[] {
  const page1 = doc.lines.filter((l) => l.page === doc.lines[0]?.page);
  if (!page1.length) return [];
  const top = Math.min(...page1.map((l) => l.y));
  const span = Math.max(1, Math.max(...page1.map((l) => l.y + l.height)) - top);
  const h = doc.lineHeight;
  const xOf = (l: Line, at: number) => spanX(l, at, at + 1).x0;
  // Runs ("line:offset") of the buyer's block: under a buyer label (same column, until a gap), and under a sender
  // line over an address window. The names read there are the buyer's wherever else they appear.
  const buyerBlock = new Set<string>();
  const buyerNames = new Set<string>();
  const senderRuns = new Set<string>();
  const toBuyer = (l: Line, r: { text: string; at: number }) => {
    buyerBlock.add(`${l.index}:${r.at}`);
    if (!STREET.test(r.text) && !POSTCODE_CITY.test(r.text)) buyerNames.add(key(cutAfterForm(r.text)));
  };
  const block = (from: Line, x: number, n: number) => {
    let prev = from;
    for (const l of page1.filter((l) => l.y > from.y).slice(0, n)) {
      if (l.y - (prev.y + prev.height) > h * 1.6) break;
      const mine = runs(l).filter((r) => Math.abs(xOf(l, r.at) - x) < h * 3);
      if (!mine.length) break;
      for (const r of mine) toBuyer(l, r);
      prev = l;
    }
  };
  // A generic label ("From", "To") counts when it stands alone in its run, as labels do.
  const labelLike = (l: Line, hit: { start: number; end: number; weak: boolean }) =>
    !hit.weak || runs(l).some((r) => r.at === hit.start && /^\p{L}+\s*:?$/u.test(r.text));
  const sellerLabels: { y: number; x: number; line: Line }[] = [];
  for (const l of page1) {
    for (const hit of doc.hits[l.index]!) {
      if (!labelLike(l, hit)) continue;
      const x = spanX(l, hit.start, hit.end).x0;
      if (hit.field === 'buyer') {
        for (const r of runs(l)) if (r.at <= hit.start && hit.start < r.at + r.text.length) buyerBlock.add(`${l.index}:${r.at}`);
        block(l, x, 6);
      } else if (hit.field === 'seller') sellerLabels.push({ y: l.y, x, line: l });
    }
    // "Muster GmbH · Industriestr. 12 · 70565 Stuttgart": a one-line sender over the recipient's address, in small
    // type; without a legal form it takes a street and a town after the name.
    const rs = runs(l);
    const named = rs[0] && !/\d/.test(rs[0].text) && !STREET.test(rs[0].text) && !CONTACT.test(rs[0].text);
    const sender = hasForm(rs[0]?.text ?? '') ? rs.length >= 2 && l.height <= h * 1.05 : named && rs.length >= 3 && l.height <= h * 0.85;
    if (sender && rs.some((r) => POSTCODE_CITY.test(r.text)) && (l.y - top) / span < 0.5) {
      senderRuns.add(key(cutAfterForm(rs[0]!.text)));
      block(l, l.x, 6);
    }
  }
  const all = doc.lines.map((l) => key(l.text)).join('\n');
  const domains = [...doc.text.matchAll(/(?:@|www\.)([a-z0-9-]{3,})\./gi)].map((m) => m[1]!.toLowerCase().replace(/-/g, ''));
  const taxIdLines = doc.lines.filter((l) => labelsIn(doc, l, 0, l.text.length, ['taxId']).length);
  const cands: SellerCandidate[] = [];
  for (const line of doc.lines) {
    const rel = (line.y - top) / span;
    const footer = line.page === page1[0]!.page ? rel > 0.8 : true;
    if (line.page !== page1[0]!.page && !footer) continue;
    // An item row (several amounts) names a product, not a party.
    if ((line.text.match(/\d[.,]\d{2}(?!\d)/g)?.length ?? 0) >= 2) continue;
    for (const r of runs(line).flatMap((r) => [r, ...afterLabelWords(r)])) {
      let name = cutAfterForm(
        r.text
          .replace(/^logo\s+/i, '')
          .replace(LABEL_COLON, '')
          .replace(NAME_LABEL, ''),
      ).replace(/[\s,;:|]+$/, '');
      let form = legalFormIn(name);
      // A legal form alone on its line ends the name on the line above ("PRODUTOS ALIMENTARES" / "S.A").
      if (form && form.index === 0 && form.end >= name.replace(/[\s.]+$/, '').length) {
        const above = nameAbove(doc, line, r.at);
        if (!above) continue;
        name = `${above} ${name}`;
        form = legalFormIn(name);
      }
      const k = key(name);
      const letters = name.replace(/[^\p{L}]/gu, '').length;
      if (letters < 2 || letters / name.length < 0.5 || k.length < 2) continue;
      if (countryNames().has(k) || CONTACT.test(name) || POSTCODE_CITY.test(name)) continue;
      // A street word in a registered name ("Feinkost St. Gallen eG") is no address without a house number.
      if (STREET.test(name) && (!form || /\d/.test(name))) continue;
      // Label words inside a registered name ("Transport Mulder B.V.") are part of it; a buyer label or a
      // "label:" is not.
      const labels = labelsIn(doc, line, r.at, r.at + r.text.length).filter((x) => x.field !== 'seller' && x.field !== 'taxId');
      if (labels.some((x) => !form || x.field === 'buyer' || /^\s*:/.test(line.text.slice(x.end)))) continue;
      // Column headers ("Quantity   Price") are no names either (a stray "U." of "S.L.U." does not make one).
      const inRun = doc.columnHits[line.index]!.filter((c) => !c.weak && c.start >= r.at && c.end <= r.at + r.text.length);
      if (inRun.reduce((n, c) => n + c.end - c.start, 0) >= r.text.length * 0.5) continue;
      // A run with digits is a page number, a reference or an address unless a legal form makes it a name.
      if (/\d/.test(name) && !form) continue;
      if (!form && rel > 0.6 && !footer) continue;
      const why: string[] = [];
      let s = 0;
      const add = (n: number, w: string) => {
        s += n;
        why.push(w);
      };
      if (form) add(3, 'legal form');
      if (line.page === page1[0]!.page && rel < 0.15) add(2, 'letterhead');
      else if (line.page === page1[0]!.page && rel < 0.3) add(1, 'upper page');
      if (line.height > h * 1.3) add(1.5, 'large type');
      if (senderRuns.has(k)) add(3, 'sender line');
      if (k.length >= 4 && all.split(k).length > 2) add(1.5, 'repeated');
      if (footer && form) add(0.5, 'footer name');
      const x = xOf(line, r.at);
      if (sellerLabels.some((l) => l.line !== line && l.y < line.y && line.y - l.y < h * 4 && Math.abs(l.x - x) < h * 4)) add(3, 'seller label');
      if (taxIdLines.some((l) => l.page === line.page && l.y > line.y && l.y - line.y < h * 8 && Math.abs(l.x - x) < h * 4)) add(1, 'tax id below');
      const words = k.split(' ').filter((w) => w.length >= 3);
      const compact = k.replace(/ /g, '');
      if (domains.some((d) => words.some((w) => d.startsWith(w) || w.startsWith(d)) || (d.length >= 5 && compact.startsWith(d)))) add(4, 'domain');
      if (buyerBlock.has(`${line.index}:${r.at}`)) add(-6, 'buyer block');
      else if (buyerNames.has(k)) add(-6, 'buyer name');
      if (/^\p{Lu}[\p{L}'’&.-]*$/u.test(name) && !form && words.length <= 1) add(-0.5, 'single word');
      if (line.confidence < 60) add(-1, 'low OCR');
      cands.push({ name, score: s, why, form: Boolean(form), line, at: r.at });
    }
  }
  return cands.sort((a, b) => b.score - a.score);
}

/** The run just above a run (same column, no gap between), when it may be the start of a name. */
function nameAbove(doc: InvoiceDoc, line: Line, at: number): string | null {
  const x = spanX(line, at, at + 1).x0;
  const h = doc.lineHeight;
  for (let i = line.index - 1; i >= Math.max(0, line.index - 3); i--) {
    const prev = doc.lines[i]!;
    if (prev.page !== line.page || line.y - (prev.y + prev.height) > h) return null;
    // Same left edge, or a centred line over it.
    const r = runs(prev).find((r) => {
      const p = spanX(prev, r.at, r.at + r.text.length);
      return Math.abs(p.x0 - x) < h * 2 || (p.x0 < x && x < p.x1);
    });
    if (!r) continue;
    return !/\d/.test(r.text) && !labelsIn(doc, prev, r.at, r.at + r.text.length).length ? r.text : null;
  }
  return null;
}

/** Evidence of who issues the invoice (the rest says where a name sits on the page). */
const IDENTITY = new Set(['legal form', 'registered name', 'sender line', 'seller label', 'tax id below', 'domain', 'repeated', 'footer name']);

/** The rules' seller; `cands`: the document's seller candidates when the caller has them already. */
export function pickSeller(doc: InvoiceDoc, cands: SellerCandidate[] = sellerCandidates(doc)): Seller {
  const first = cands[0];
  if (!first || first.score <= 0) return { name: null, confidence: 0, why: [] };
  const best = asWritten(cands, first, (c) => c.score > 0);
  const second = cands.find((c) => looseKey(c.name) !== looseKey(best.name) && !key(best.name).startsWith(key(c.name)));
  const margin = best.score - (second?.score ?? 0);
  // Near certain only when several independent signs name the same party and no other name comes close.
  const signs = best.why.filter((w) => IDENTITY.has(w)).length;
  const confidence = Math.round(Math.min(signs >= 3 && margin >= 4 ? 98 : 95, 30 + best.score * 6 + Math.min(margin, 4) * 5));
  return { name: best.name, confidence, why: best.why, line: best.line, at: best.at };
}

/**
 * The chosen name as the issuer writes it: its registered form when another likely run adds the legal form to it (a
 * logo, a short letterhead), and in mixed case when a likely run writes the capitals so.
 */
export function asWritten(cands: SellerCandidate[], chosen: SellerCandidate, likely: (c: SellerCandidate) => boolean): SellerCandidate {
  let best = chosen;
  const registered = !best.form && cands.find((c) => c.form && likely(c) && c.score >= best.score - 3 && key(c.name).startsWith(`${key(best.name)} `));
  if (registered) best = { ...registered, score: Math.max(best.score, registered.score), why: [...registered.why, 'registered name'] };
  if (!/\p{Ll}/u.test(best.name)) {
    const mixed = cands.find((c) => likely(c) && /\p{Ll}/u.test(c.name) && looseKey(c.name) === looseKey(best.name));
    if (mixed) best = { ...best, name: mixed.name };
  }
  return best;
}

export { looseKey as sellerKey };
