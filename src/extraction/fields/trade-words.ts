// Words of trade that shop and company names are made of ("… PHARMACY", "… TRADING", "… & COMPANY"): a name word
// OCR read a letter or two off ("FHARHACY", "COMFANY") is put back to the word it is closest to. Generic
// vocabulary only — no shop's own name is in it, so a misread name of its own stays as read.

const TRADE_WORDS = [
  'ACCESSORIES',
  'AGENCY',
  'APPLIANCES',
  'AUTOMOBILE',
  'BAKERIES',
  'BAKERY',
  'BOOKSTORE',
  'BOOKSTORES',
  'BOUTIQUE',
  'BROTHERS',
  'BUTCHERY',
  'CATERING',
  'CENTRE',
  'CENTER',
  'CHEMICAL',
  'CLINIC',
  'COMPANY',
  'CONFECTIONERY',
  'CONSTRUCTION',
  'CORPORATION',
  'DISTRIBUTION',
  'DISTRIBUTOR',
  'DISTRIBUTORS',
  'ELECTRICAL',
  'ELECTRONICS',
  'ENGINEERING',
  'ENTERPRISE',
  'ENTERPRISES',
  'FASHION',
  'FLORIST',
  'FURNITURE',
  'GROCERY',
  'HANDICRAFT',
  'HARDWARE',
  'HEALTHCARE',
  'HOLDINGS',
  'HYPERMARKET',
  'INDUSTRIES',
  'INTERNATIONAL',
  'KITCHEN',
  'LAUNDRY',
  'MACHINERY',
  'MARKETING',
  'MEDICAL',
  'MERCHANDISE',
  'MINIMARKET',
  'MOTORS',
  'OFFICE',
  'OPTICAL',
  'PACKAGING',
  'PHARMACY',
  'PHOTOCOPY',
  'PRINTING',
  'PRODUCTS',
  'RESOURCES',
  'RESTAURANT',
  'SEAFOOD',
  'SERVICES',
  'SERVICE',
  'MALAYSIA',
  'RETAIL',
  'STATION',
  'STATIONERY',
  'SUPERMARKET',
  'SUPPLIES',
  'SUPPLY',
  'TAILORING',
  'TECHNOLOGY',
  'TRADING',
  'VENTURES',
  'WHOLESALE',
];

/** Compounds whose parts stand alone in names too ("SUPER MARKET", "HEALTH CARE"): never joined from two words. */
const COMPOUNDS = new Set(['BOOKSTORE', 'BOOKSTORES', 'HANDICRAFT', 'HEALTHCARE', 'HYPERMARKET', 'MINIMARKET', 'PHOTOCOPY', 'SUPERMARKET', 'WHOLESALE']);

/** Levenshtein distance of a and b, giving up (returning max + 1) once it exceeds max. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...cur) > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The trade word a misread word stands for: one edit for 5–7 letters, two from 8; only when one word is that close. */
function tradeWord(word: string): string | null {
  const up = word.toUpperCase();
  if (up.length < 5 || !/^[A-Z0-9]+$/.test(up) || TRADE_WORDS.includes(up)) return null;
  // A plural or singular of a trade word is itself ("STATIONS", "MOTOR").
  if (TRADE_WORDS.includes(`${up}S`) || (up.endsWith('S') && TRADE_WORDS.some((w) => w === up.slice(0, -1) || `${w}S` === up))) return null;
  const max = up.length >= 8 ? 2 : 1;
  const near = TRADE_WORDS.filter((w) => distance(up, w, max) <= max);
  return near.length === 1 ? near[0]! : null;
}

/** A word of trade (or its plural): generic, so a name made only of such words began before them. */
export const isTradeWord = (word: string): boolean => {
  const up = word.toUpperCase();
  return TRADE_WORDS.includes(up) || (up.endsWith('S') && TRADE_WORDS.includes(up.slice(0, -1)));
};

/** Each word of a name that OCR read a letter or two off a trade word, put back in the name's own case. */
export function fixTradeWords(name: string): string {
  // A trade word OCR split in two ("MARK ETING", "STAT ION") is whole again.
  const words = name.split(' ');
  for (let i = 0; i + 1 < words.length; i++) {
    const w = `${words[i]}${words[i + 1]}`;
    if (/^\p{L}+$/u.test(w) && TRADE_WORDS.includes(w.toUpperCase()) && !COMPOUNDS.has(w.toUpperCase())) words.splice(i, 2, w);
  }
  const joined = words.join(' ');
  return joined.replace(/[\p{L}\d]+/gu, (w) => {
    const t = tradeWord(w);
    if (!t || !/\p{L}/u.test(w)) return w;
    return w === w.toUpperCase() ? t : w[0] === w[0]!.toUpperCase() ? t[0] + t.slice(1).toLowerCase() : t.toLowerCase();
  });
}
