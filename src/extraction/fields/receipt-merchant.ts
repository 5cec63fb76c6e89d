// The merchant of a receipt: the header block's name candidates (vendor.ts) re-weighed for till slips — the legal
// entity ("… SDN BHD", SIA "…", "… GmbH") over a brand or branch line, never a document title ("TAX INVOICE",
// "RECEIPT") or a greeting — and cleaned of what OCR and the printer add around it (registration numbers, lost
// spaces in legal forms).
import type { Line } from './layout.ts';
import { mendFromAddress } from './merchant-address.ts';
import { fixTradeWords, isTradeWord } from './trade-words.ts';
import { ADDRESS, BRANCH_NUMBER, LEGAL_FORM, nameCandidates } from './vendor.ts';

/** Document titles, greetings and slip furniture: never the merchant, even in capitals at the top. */
const NOT_MERCHANT =
  /\b(tax invoice|invoice|receipt|cash bill|cash sale|official|simplified|thank|welcome|customer|copy|kvīts|kvits|čeks|ceks|rēķins|rekins|quittung|beleg|reçu|ticket|facture|bill no|order|table|member)\b/i;
/**
 * Labels of the people on a slip (cashier, server, customer, "Name:"): the name after one is a person's, not the
 * shop's.
 */
const PERSON_ROLE =
  '(?:cashier|kasieris|kasiere|served by|server|waiter|waitress|salesperson|sales person|staff|operator|attendant|customer|pircējs|pircejs|klients|member|kassierer|bedient von|caissier|attn|name(?=\\s*:)|nama(?=\\s*:))';
const PERSON_LABEL = new RegExp(`\\b${PERSON_ROLE}\\s*[:#.-]?\\s*$`, 'i');
/** A label with a name after it on one line ("Served by MARIA", "Cashier: ANNA"). */
const PERSON_NAMED = new RegExp(`^\\s*${PERSON_ROLE}\\b\\s*[:#.-]?\\s*\\p{L}`, 'iu');

/** The candidate follows a person's label on its line, or on the line above when that holds the label alone. */
function afterPersonLabel(name: string, line: Line, lines: Line[]): boolean {
  const at = line.text.indexOf(name);
  if (at > 0 && PERSON_LABEL.test(line.text.slice(0, at))) return true;
  const above = lineAbove(line, lines);
  return Boolean(at === 0 && above && PERSON_LABEL.test(above.text) && above.text.replace(PERSON_LABEL, '').trim() === '');
}

/** A company registration number printed after the name: "(728384-M)", "(1248717-W)", "Co. Reg. 21003B-K". */
const REG_NUMBER = /\s*[([]?\s*(?:co\.?\s*)?(?:reg(?:istration)?\.?\s*(?:no\.?)?\s*:?\s*)?\d{3,}[\dA-Z]*(?:-[A-Z0-9]{1,2})?\s*[)\]]?\s*$/i;

/** "OWNED BY:", "OPERATED BY" before the company that runs a brand's outlet. */
const OWNED_BY = /^\s*\(?\s*(?:own(?:ed)?|operated|managed)\s+by\s*:?\s*/i;
/** A registration number with more after it ("… SB (306295-X) FKA …"): the name ends before it. */
const MID_REG_NUMBER = /\s*[([]\s*\d{4,}\s*-?\s*[A-Z0-9]{1,2}\s*[)\]]\s*(?=\S)/i;

/** A legal form that ends a company's name; what follows it on the line is a branch or place ("… CO. THE GARDENS MALL"). */
const NAME_END_FORM = /\b(?:SDN\.?\s?BHD\.?|BHD\.?|Ltd\.?|Limited|LLC|Inc\.?|Corp\.?|Co\.|PLC|LLP|GmbH)(?=\s+\p{L})/giu;

/** The name up to its closing legal form, when words without a legal form of their own follow it on the line. */
function cutAfterForm(name: string): string {
  for (const m of name.matchAll(NAME_END_FORM)) {
    const end = m.index + m[0].length;
    if (!COMPANY_FORM.test(name.slice(end)) && !/\b(?:KG|AG|OHG)\b/.test(name.slice(end))) return name.slice(0, end);
  }
  return name;
}

/** Letters OCR reads as digits when they stand alone. */
const DIGIT_AS_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '2': 'Z', '3': 'B', '4': 'A', '5': 'S', '6': 'G', '7': 'T', '8': 'B', '13': 'B' };
/**
 * An initial joined by "&" to a word of the name ("3 & BEST" is "B & BEST", "M & 5 TRADING" is "M & S TRADING");
 * "13" is a B whose two strokes OCR read apart.
 */
const DIGIT_INITIAL = /(?<![\p{L}\d.,&-]\s?)(?<![\p{L}\d])(?:13|\d)(?=\s?&\s?\p{L})|(?<=\p{L}\s?&\s?)(?:13|\d)(?![\p{L}\d])/gu;

/** A zero OCR read for the letter O inside a word of letters ("K0PITIAM", "Rest0ran"); numbers ("2001", "A10") stay. */
const ZERO_IN_WORD = /(?<![\p{L}\d])(?=[\p{L}0]*\p{L}[\p{L}0]*\p{L})[\p{L}0]{3,}(?![\p{L}\d])/gu;
/** A 5 or 8 OCR read for S or B between capitals inside a word of at least four letters ("ME5RA", "RI8BON"). */
const DIGIT_IN_CAPS = /(?<![\p{L}\d])(?=(?:[\p{Lu}58]*\p{Lu}){4})\p{Lu}[\p{Lu}58]*\p{Lu}(?![\p{L}\d])/gu;
/** A legal form A/S written before a quoted name is the Baltic AS ("A/S "…"" is AS "…"); after a name it is Danish. */
const PREFIX_AS = /^\s*A\/S(?=\s?["“„«*])/;
/** A capital and a zero as a word ("KOALA C0. (M) BHD", "N0"): the zero is an O. */
const ZERO_AFTER_INITIAL = /(?<![\p{L}\d])(\p{Lu})0(?![\p{L}\d])/gu;
/** A one OCR read for I before three capitals or more ("1MAGE"); an ordinal ("1ST") stays. */
const ONE_AS_I = /(?<![\p{L}\d])1(?!ST|ND|RD|TH)(?=\p{Lu}{3,}(?![\p{L}\d]))/gu;
const zeroAsO = (word: string) => word.replace(/0/g, (_, i: number) => (/\p{Ll}/u.test(word[i - 1] ?? word[i + 1] ?? '') ? 'o' : 'O'));

/** Undo OCR slips inside legal forms: "5dn Bhd" → "Sdn Bhd", "SDNBHD" and "PAPERSDN BHD" → "… SDN BHD". */
export function cleanMerchant(name: string): string {
  const cut = name.match(MID_REG_NUMBER);
  const own = cut && /\p{L}{2}/u.test(name.slice(0, cut.index)) ? name.slice(0, cut.index) : name;
  return (
    fixTradeWords(
      cutAfterForm(own)
        .replace(ZERO_IN_WORD, zeroAsO)
        .replace(ZERO_AFTER_INITIAL, '$1O')
        .replace(ONE_AS_I, 'I')
        .replace(DIGIT_IN_CAPS, (w) => w.replace(/5/g, 'S').replace(/8/g, 'B'))
        .replace(PREFIX_AS, 'AS'),
    )
      .replace(DIGIT_INITIAL, (d) => DIGIT_AS_LETTER[d] ?? d)
      .replace(OWNED_BY, '')
      .replace(BRANCH_NUMBER, '')
      .replace(/\b5dn\b/gi, (m) => (m[1] === 'D' ? 'SDN' : 'Sdn'))
      // The word before BHD starting with S is SDN however OCR read it ("SLII BHD", "S0#. BHD", "S(.1: BHD"), except
      // "SONS"; four marks after the S only when one is no letter.
      .replace(/(?<![\p{L}\d])[S5](?![Oo][Nn][Ss]\b)(?:[^\s]{1,3}?|(?=\S{0,3}[^\p{L}\s])\S{4})\.?\s?(?=BHD\b)/giu, (m) =>
        /^sdn/i.test(m) ? m : /\p{Ll}/u.test(m.slice(1)) ? 'Sdn ' : 'SDN ',
      )
      // "SDN B H", "Sdn Bh d": BHD split or cut short by OCR.
      .replace(/\b(sdn\.?\s?)(b\s?h(?:\s?d)?)\b/gi, (_, sdn: string, bhd: string) => `${sdn}${bhd[0] === 'B' && bhd.at(-1) !== 'd' ? 'BHD' : 'Bhd'}`)
      .replace(/(?<=\S)(sdn\.?\s?bhd)/gi, ' $1')
      .replace(/\b(sdn\.?)(bhd)/gi, '$1 $2')
      // A closing legal form whose D OCR read as O or 0 ("… LTO", "SDN BH0").
      .replace(/\b(lt|bh)[o0](?=[\s."'”»)]*$)/giu, (_, f: string) => `${f}${f === f.toUpperCase() ? 'D' : 'd'}`)
      .replace(/(\)|\p{L})(?=\(\d)/gu, '$1 ')
      // A bare number of three or four digits ends a name ("ZIEDS 2001", "AMPANG 210"); registration numbers are longer or marked.
      .replace(REG_NUMBER, (m) => (/^\s*\d{3,4}\s*$/.test(m) ? m : ''))
      .replace(/[\s,:;-]+$/, '')
      // OCR specks around the name: a lone bar or mark, or a lone small letter, before or after it ("| NAME", "e Name i").
      .replace(/^(?:[|!¦_~•·*]+|\p{Ll})\s+(?=\S{2})|(?<=\S{2})\s+(?:[|!¦_~•·*]+|\p{Ll})$/gu, '')
      .trim()
  );
}

/** A name line above the legal entity: letters and spaces in capitals (or capitalised words), no address or title. */
const NAME_LINE = /^(?:\(?(?:[\p{Lu}\d&'.-]+|\p{Lu}[\p{Ll}'.-]+)\)?)(?:\s+(?:\(?(?:[\p{Lu}\d&'.-]+|\p{Lu}[\p{Ll}'.-]+)\)?|&))*$/u;
/**
 * A line that goes on with the name on the line above: it closes a bracket opened there ("TIMUR) SDN BHD") or starts
 * with a word that ends names ("ENTERPRISE (CAHAYA", "& SONS").
 */
const CONTINUES = /^\s*(?:[^()]*\)|(?:&|ENTERPRISES?|TRADING|SDN\.?\s?BHD|BHD|S\/B|CO\.|COMPANY|LTD\.?|LIMITED)(?!\p{L}))/iu;

/** A line that stops mid-name: after "&", "AND", "OF" or inside a bracket it opened. */
const OPEN_END = /(?:&|\b(?:and|of|dan))\s*$|\([^)]*$/iu;

const lineAbove = (line: Line, lines: Line[]) => lines.filter((l) => l.page === line.page && l.index < line.index).at(-1);

/**
 * The first part of a name the printer split over two lines ("NORTH HILL" over "STATIONERY SDN. BHD",
 * "KLM BUILDING SUPPLY" over "TRADING"): the line right above the legal entity, as tall (±20%; at most 10% taller
 * when the line below is a name of its own, since a brand line above a company is printed larger), at most one line
 * height above it, of letters with at most a short number, and no title or address; no legal form of its own either,
 * unless the line below is a legal form alone or goes on with the name above it.
 */
export function nameAbove(line: Line, lines: Line[], formOnly = false, maxRatio = 1.2): string | null {
  const above = lineAbove(line, lines);
  if (!above) return null;
  const text = clean(above.text);
  const ratio = above.height / line.height;
  if (ratio < 0.85 || ratio > maxRatio || line.y - (above.y + above.height) > line.height) return null;
  const letters = text.replace(/[^\p{L}]/gu, '').length;
  if (letters < 4 || /\d{4,}/.test(text) || !NAME_LINE.test(text) || text.split(' ').length > 5) return null;
  if ((LEGAL_FORM.test(text) && !formOnly && !CONTINUES.test(line.text)) || NOT_MERCHANT.test(text) || ADDRESS.test(text)) return null;
  if (afterPersonLabel(above.text, above, lines) || PERSON_NAMED.test(text)) return null;
  return text;
}

/** The line under a name that stops mid-way, when it is a name's end: as tall (±20%), close, letters, no address. */
function nameBelow(line: Line, lines: Line[]): string | null {
  const below = lines.find((l) => l.page === line.page && l.index > line.index);
  if (!below) return null;
  const text = clean(below.text);
  const ratio = below.height / line.height;
  if (ratio < 0.8 || ratio > 1.2 || below.y - (line.y + line.height) > line.height) return null;
  if (text.replace(/[^\p{L}]/gu, '').length < 3 || /\d{3,}/.test(text) || !NAME_LINE.test(text) || text.split(' ').length > 5) return null;
  return NOT_MERCHANT.test(text) || ADDRESS.test(text) || PERSON_NAMED.test(text) ? null : text;
}

/** The lines above a legal entity that its name began on: one, or two when the upper of them goes on from a third. */
function firstLines(line: Line, lines: Line[], formOnly: boolean, maxRatio: number): string | null {
  const first = nameAbove(line, lines, formOnly, maxRatio);
  const upper = first ? lineAbove(line, lines) : undefined;
  const top = upper && CONTINUES.test(upper.text) ? nameAbove(upper, lines) : null;
  return top ? `${top} ${first}` : first;
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
const head = (s: string) =>
  s
    .replace(/[^\p{L}\d]/gu, '')
    .slice(0, 4)
    .toLowerCase();
/** The candidate is where its line begins (not a name cut from the middle of a line). */
const startsLine = (name: string, line: Line) => head(line.text) === head(name);

/** A legal form written before its quoted name: SIA "…", AS "…". */
const QUOTED_AFTER_FORM = /^\s*(?:SIA|AS|A\/S|UAB|OÜ)\s?["“„«]/u;

/** A company's own legal form (not a trade word such as PHARMACY or TRADING); "SB" is Malaysia's short Sdn Bhd. */
const COMPANY_FORM = /\b(?:SDN\.?\s?BHD|BHD|S\/?B|GmbH|Ltd|Limited|LLC|Inc|PLC|Pte|SIA|UAB|AS|A\/S|OÜ)\b/i;
/** The end of the previous slip, when a scan starts with its bottom: thanks, the cashier line. */
const SLIP_END = /\b(thank\s?you|terima kasih|visit (?:us )?again|cashier|kasieris)\b/i;
/** A line of only dates, times and brackets ("[19/06/17] [11:37]"). */
const DATE_TIME_ONLY = /^[\s[\]()\d/.:-]+$/;

/** The header's lines: after the previous slip's end when the scan starts with one (within its first six lines). */
function headerLines(lines: Line[]): Line[] {
  const end = lines.slice(0, 6).findLastIndex((l) => SLIP_END.test(l.text));
  if (end < 0) return lines;
  let start = end + 1;
  while (start < lines.length && DATE_TIME_ONLY.test(lines[start]!.text)) start++;
  return start < lines.length - 3 ? lines.slice(start) : lines;
}

/** The merchant's name and how sure; `line`: where it was read (a name joined with the line above: the lower one). */
export function pickMerchant(lines: Line[]): { name: string | null; confidence: number; line?: Line } {
  const scored = nameCandidates(headerLines(lines), 'receipt').map((c) => {
    const own = cleanMerchant(c.name);
    const company = COMPANY_FORM.test(own);
    const legal = company || LEGAL_FORM.test(own);
    // A legal entity continues the line above ("NORTHERN COAST" over "HARDWARE SDN BHD"); one with words of its
    // own only under a line of its own size (a brand line above a company, "GREEN LEAF" over "K&L FRESH FOODS SDN
    // BHD", is printed larger), and never one that names who runs the shop ("OWNED BY: …").
    const rest = own
      .replace(new RegExp(LEGAL_FORM.source, 'giu'), ' ')
      .replace(/[^\p{L}\d&\s]/gu, '')
      .trim();
    const words = rest.split(/\s+/).filter(Boolean).length;
    // A quoted name after its legal form (SIA "…") is whole: it goes on from no line above.
    // With two words or more of its own, at least one a name's (not a trade word), the entity is a whole name; a
    // line above it joins only where the name visibly wraps ("… ENTERPRISE (KOTA" over "BARU) SDN BHD").
    const above = lineAbove(c.line, lines);
    const generic = rest.split(/\s+/).every((w) => !w || isTradeWord(w));
    const wraps = words <= 1 || generic || CONTINUES.test(c.line.text) || (above !== undefined && OPEN_END.test(above.text));
    const joins = legal && wraps && startsLine(c.name, c.line) && !OWNED_BY.test(c.line.text) && !QUOTED_AFTER_FORM.test(own);
    const first = joins ? firstLines(c.line, lines, words === 0, words <= 1 ? 1.2 : 1.1) : null;
    // A name that stops mid-way ("GARDEN HOME TOOLS &") goes on on the line below.
    const end = !first && OPEN_END.test(own) ? nameBelow(c.line, lines) : null;
    const name = first ? `${first} ${own}` : end ? `${own} ${end}` : own;
    let score = c.score;
    if (legal) score += 2;
    // The company that runs the shop over a trade name above it ("GREEN LEAF PHARMACY" / "… HEALTHCARE SDN BHD").
    if (company) score += 1;
    // The whole name beats its first line alone.
    if (first) score += 1;
    if (NOT_MERCHANT.test(name) && !legal) score -= 4;
    if (afterPersonLabel(c.name, c.line, lines) || PERSON_LABEL.test(name) || PERSON_NAMED.test(name)) score -= 5;
    if (name.replace(/[^\p{L}]/gu, '').length < 3) score -= 3;
    // A legal form alone ("SIA" cut from its quoted name) names nobody.
    if (name.replace(new RegExp(LEGAL_FORM.source, 'giu'), '').replace(/[^\p{L}]/gu, '').length < 2) score -= 5;
    return { name, score, line: c.line };
  });
  scored.sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || best.score <= 0 || !best.name) return { name: null, confidence: 0 };
  const margin = best.score - (second?.score ?? 0);
  // A receipt's header name is right about four times in five on the dev receipts (OCR misreads, brand or company
  // line): never in the >= 90 band partners read as right at least 97% of the time.
  const conf = Math.min(89, 35 + best.score * 5 + margin * 5) * (best.line.confidence / 100);
  const name = mendFromAddress(best.name, lines.map((l) => l.text).join('\n'));
  return { name, confidence: Math.max(5, Math.round(conf)), line: best.line };
}
