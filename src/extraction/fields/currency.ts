// ISO 4217 currency from the evidence in a document's text; null when there is none.

const CODES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'MYR',
  'SGD',
  'CAD',
  'AUD',
  'JPY',
  'CNY',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'HUF',
  'INR',
  'IDR',
  'THB',
  'NZD',
  'HKD',
];

/** Words that say which country a "$" or "kr" belongs to. */
const DOLLAR_CONTEXT: [RegExp, string][] = [
  [/\b(canada|ontario|quebec|british columbia|alberta|GST\/HST|HST)\b|\bCA\$|\bC\$/i, 'CAD'],
  [/\b(australia|NSW|victoria|queensland|ABN)\b|\bA\$|\bAU\$/i, 'AUD'],
  [/\b(singapore)\b|\bS\$/i, 'SGD'],
  [/\b(new zealand)\b|\bNZ\$/i, 'NZD'],
  [/\b(hong kong)\b|\bHK\$/i, 'HKD'],
  [/\b(USA|U\.S\.A?\.?|united states|sales tax)\b|\bUS\$|\b[A-Z]{2} \d{5}(?:-\d{4})?\b/, 'USD'],
];

export interface CurrencyEvidence {
  currency: string | null;
  /** 0–100: explicit code > symbol > locale words. */
  confidence: number;
}

/** `langs`: the document's languages; a euro-area language is weak evidence of EUR when nothing is printed. */
export function detectCurrency(text: string, langs: string[] = []): CurrencyEvidence {
  const counts = new Map<string, number>();
  const add = (c: string, n: number) => counts.set(c, (counts.get(c) ?? 0) + n);
  for (const code of CODES) {
    const n = text.match(new RegExp(`(?<![A-Z])${code}(?![A-Z])`, 'g'))?.length ?? 0;
    if (n) add(code, n * 3);
  }
  const euro = text.match(/€|\bEURO?S?\b/gi)?.length ?? 0;
  if (euro) add('EUR', euro * 2);
  const rm = text.match(/(?<![A-Za-z])RM\s?\d|\bRinggit\b|(?<![A-Za-z])RM(?![A-Za-z])/g)?.length ?? 0;
  if (rm) add('MYR', rm * 2);
  const pound = text.match(/£/g)?.length ?? 0;
  if (pound) add('GBP', pound * 2);
  const dollar = text.match(/\$/g)?.length ?? 0;
  if (dollar) {
    const ctx = DOLLAR_CONTEXT.find(([re]) => re.test(text));
    if (ctx) add(ctx[1], dollar * 2);
  }
  if (/\bCHF\b|\bFr\.\s?\d/.test(text)) add('CHF', 1);
  let best: string | null = null;
  let bestN = 0;
  for (const [c, n] of counts) if (n > bestN) [best, bestN] = [c, n];
  if (!best) return localeCurrency(text, langs);
  return { currency: best, confidence: Math.min(100, 60 + bestN * 8) };
}

/**
 * Weak evidence: the document's language/country words (Latvian VAT "PVN", German "MwSt", Malaysian "SDN BHD"/"GST"
 * with a Malaysian context) when no symbol or code is printed.
 */
function localeCurrency(text: string, langs: string[]): CurrencyEvidence {
  if (/\bSDN\.?\s?BHD\b|\bMalaysia\b|\bSST\b|\bJohor|\bSelangor|\bKuala Lumpur/i.test(text)) return { currency: 'MYR', confidence: 45 };
  if (/\bPVN\b|\bKOPĀ\b|\bLatvija|\bRīga\b|\bSIA\b.*\bLV\d{4}|\bLV-?\d{4}\b/i.test(text)) return { currency: 'EUR', confidence: 40 };
  if (/\b(MwSt|USt-?IdNr|Mehrwertsteuer|Umsatzsteuer|Deutschland|Österreich)\b/i.test(text)) return { currency: 'EUR', confidence: 40 };
  if (/\b(TVA|SIRET|SIREN|TTC)\b/.test(text) && !/\b(CHF|Suisse|Schweiz)\b/i.test(text)) return { currency: 'EUR', confidence: 35 };
  // A country's address: UK postcodes or the country name → GBP; a US state and ZIP or the country name → USD.
  if (/\b(United Kingdom|England|Scotland|Wales|Great Britain)\b|\b[A-Z]{1,2}\d{1,2}[A-Z]?\s\d[A-Z]{2}\b/.test(text))
    return { currency: 'GBP', confidence: 30 };
  if (
    /\b(USA|U\.S\.A\.?|United States)\b|\b[A-Z][a-z]+,?\s(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])\s\d{5}(?:-\d{4})?\b/.test(
      text,
    )
  )
    return { currency: 'USD', confidence: 30 };
  const euroLanguage = langs.length > 0 && langs.every((l) => ['de', 'fr', 'es', 'it', 'nl', 'pt'].includes(l));
  if (euroLanguage && !/\b(CHF|Suisse|Schweiz|Svizzera|Brasil|M[ée]xico|Argentina|Colombia|Chile|Per[uú]|Angola|Mo[cç]ambique)\b/i.test(text))
    return { currency: 'EUR', confidence: 30 };
  return { currency: null, confidence: 0 };
}
