// What a country fixes whatever the language: currency, VAT rates, identifiers (VAT id, IBAN with valid check
// digits, phone numbers, company registers) and how an address is written. Locales add names, forms and styles.

import type { Rng } from '../random.ts';
import type { Country } from './types.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** ISO 13616 check digits: move the country and "00" to the end, letters → numbers, 98 − (n mod 97). */
function ibanCheck(cc: string, bban: string): string {
  const digits = (bban + cc + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let r = 0;
  for (const ch of digits) r = (r * 10 + Number(ch)) % 97;
  return String(98 - r).padStart(2, '0');
}
const group4 = (s: string) => s.replace(/(.{4})/g, '$1 ').trim();
function iban(rng: Rng, cc: string, parts: ReadonlyArray<readonly [number, string]>): string {
  const bban = parts.map(([n, alphabet]) => rng.chars(n, alphabet)).join('');
  return group4(cc + ibanCheck(cc, bban) + bban);
}
const bic = (rng: Rng, cc: string) => rng.chars(4, UPPER) + cc + rng.chars(2, UPPER) + (rng.chance(0.5) ? 'XXX' : '');
const D = '0123456789';

/** What a locale adds to a country. */
type LocalPart = 'name' | 'legalForms' | 'cities' | 'numberStyles' | 'negativeStyles' | 'dateStyles' | 'taxNames' | 'monthFirst';
type Base = Omit<Country, LocalPart>;

/** A country as one language writes it. */
export const country = (code: keyof typeof BASES, local: Pick<Country, Exclude<LocalPart, 'monthFirst'>> & Partial<Country>): Country => ({
  ...BASES[code]!,
  ...local,
});

/** A bank line set: bank name, IBAN, BIC (or routing and account numbers in the United States). */
export function bankDetails(rng: Rng, base: Country): { bank: string; iban: string; bic: string } {
  if (!base.ibanParts.length) return { bank: rng.pick(base.banks), iban: `Routing ${rng.chars(9, D)} · Account ${rng.chars(10, D)}`, bic: '' };
  return { bank: rng.pick(base.banks), iban: iban(rng, base.code, base.ibanParts), bic: bic(rng, base.code) };
}

const num = (rng: Rng, n: number) => rng.chars(1, '123456789') + rng.chars(n - 1, D);

export const BASES = {
  DE: {
    code: 'DE',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.19, 0.07],
    tld: 'de',
    street: (rng, s) => `${s} ${rng.int(1, 180)}${rng.chance(0.1) ? rng.pick(['a', 'b']) : ''}`,
    cityLine: (rng, c) => `${num(rng, 5)} ${c}`,
    vatId: (rng) => `DE${num(rng, 9)}`,
    phone: (rng) =>
      rng.pick([`+49 ${rng.int(30, 99)} ${num(rng, 7)}`, `0${rng.int(30, 999)} / ${num(rng, 6)}-0`, `+49 (0)${rng.int(30, 99)} ${num(rng, 3)} ${num(rng, 4)}`]),
    register: (rng, c) => `Amtsgericht ${c} HRB ${num(rng, 5)}`,
    banks: ['Sparkasse', 'Commerzbank', 'Deutsche Bank', 'Volksbank', 'Postbank', 'HypoVereinsbank'],
    ibanParts: [[18, D]],
  },
  AT: {
    code: 'AT',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.2, 0.1, 0.13],
    tld: 'at',
    street: (rng, s) => `${s} ${rng.int(1, 90)}${rng.chance(0.2) ? `/${rng.int(1, 12)}` : ''}`,
    cityLine: (rng, c) => `${num(rng, 4)} ${c}`,
    vatId: (rng) => `ATU${num(rng, 8)}`,
    phone: (rng) => `+43 ${rng.int(1, 699)} ${num(rng, 6)}`,
    register: (rng, c) => `FN ${num(rng, 6)}${rng.chars(1, 'abdfghikmpstvwxyz')}, Landesgericht ${c}`,
    banks: ['Erste Bank', 'Raiffeisenbank', 'Bank Austria', 'BAWAG P.S.K.'],
    ibanParts: [[16, D]],
  },
  CH: {
    code: 'CH',
    currency: { code: 'CHF', symbol: 'CHF' },
    vatRates: [0.081, 0.026, 0.038],
    tld: 'ch',
    street: (rng, s) => `${s} ${rng.int(1, 120)}`,
    cityLine: (rng, c) => `${rng.pick(['', 'CH-'])}${num(rng, 4)} ${c}`,
    vatId: (rng) => `CHE-${num(rng, 3)}.${rng.chars(3, D)}.${rng.chars(3, D)} ${rng.pick(['MWST', 'TVA', 'IVA'])}`,
    phone: (rng) => `+41 ${rng.int(21, 91)} ${num(rng, 3)} ${rng.chars(2, D)} ${rng.chars(2, D)}`,
    register: (rng) => `UID CHE-${num(rng, 3)}.${rng.chars(3, D)}.${rng.chars(3, D)}`,
    banks: ['UBS Switzerland AG', 'PostFinance', 'Raiffeisen', 'Zürcher Kantonalbank', 'Banque Cantonale Vaudoise'],
    ibanParts: [
      [5, D],
      [12, D],
    ],
  },
  FR: {
    code: 'FR',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.2, 0.1, 0.055],
    tld: 'fr',
    street: (rng, s) => `${rng.int(1, 140)}${rng.chance(0.1) ? ' bis' : ''}, ${s}`,
    cityLine: (rng, c) => `${num(rng, 5)} ${c}${rng.chance(0.2) ? ` CEDEX ${rng.int(1, 9)}` : ''}`,
    vatId: (rng) => `FR${rng.chars(2, D)} ${num(rng, 3)} ${rng.chars(3, D)} ${rng.chars(3, D)}`,
    phone: (rng) =>
      rng.pick([
        `+33 ${rng.int(1, 9)} ${rng.chars(2, D)} ${rng.chars(2, D)} ${rng.chars(2, D)} ${rng.chars(2, D)}`,
        `0${rng.int(1, 9)} ${rng.chars(2, D)} ${rng.chars(2, D)} ${rng.chars(2, D)} ${rng.chars(2, D)}`,
      ]),
    register: (rng, c) => `RCS ${c} ${rng.pick(['B', 'A'])} ${num(rng, 3)} ${rng.chars(3, D)} ${rng.chars(3, D)} – SIRET ${num(rng, 14)}`,
    banks: ['BNP Paribas', 'Crédit Agricole', 'Société Générale', 'LCL', 'Crédit Mutuel', 'La Banque Postale'],
    ibanParts: [
      [10, D],
      [11, ALNUM],
      [2, D],
    ],
  },
  BE: {
    code: 'BE',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.21, 0.06, 0.12],
    tld: 'be',
    street: (rng, s) => `${s} ${rng.int(1, 250)}`,
    cityLine: (rng, c) => `${num(rng, 4)} ${c}`,
    vatId: (rng) => `BE 0${num(rng, 3)}.${rng.chars(3, D)}.${rng.chars(3, D)}`,
    phone: (rng) => `+32 ${rng.int(2, 9)} ${num(rng, 3)} ${rng.chars(2, D)} ${rng.chars(2, D)}`,
    register: (rng, c) => `RPM/RPR ${c} 0${num(rng, 3)}.${rng.chars(3, D)}.${rng.chars(3, D)}`,
    banks: ['KBC', 'Belfius', 'BNP Paribas Fortis', 'ING Belgique'],
    ibanParts: [[12, D]],
  },
  ES: {
    code: 'ES',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.21, 0.1, 0.04],
    tld: 'es',
    street: (rng, s) => `${s}, ${rng.int(1, 200)}${rng.chance(0.4) ? `, ${rng.int(1, 8)}º ${rng.pick(['A', 'B', 'izda.', 'dcha.'])}` : ''}`,
    cityLine: (rng, c) => `${rng.chars(2, D)}${rng.chars(3, D)} ${c}`,
    vatId: (rng) => rng.pick([`ES${rng.pick(['B', 'A'])}${num(rng, 8)}`, `${rng.pick(['B', 'A'])}-${num(rng, 8)}`, `${rng.pick(['B', 'A'])}${num(rng, 8)}`]),
    phone: (rng) => `+34 ${rng.pick(['91', '93', '96', '95', '6'])}${rng.chars(1, D)} ${rng.chars(3, D)} ${rng.chars(3, D)}`,
    register: (rng, c) => `Inscrita en el Registro Mercantil de ${c}, Tomo ${num(rng, 5)}, Folio ${rng.int(1, 220)}, Hoja M-${num(rng, 6)}`,
    banks: ['Banco Santander', 'BBVA', 'CaixaBank', 'Banco Sabadell', 'Bankinter'],
    ibanParts: [[20, D]],
  },
  IT: {
    code: 'IT',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.22, 0.1, 0.04],
    tld: 'it',
    street: (rng, s) => `${s}, ${rng.int(1, 180)}`,
    cityLine: (rng, c) => `${num(rng, 5)} ${c} (${c.slice(0, 2).toUpperCase()})`,
    vatId: (rng) => `IT${num(rng, 11)}`,
    phone: (rng) => `+39 0${rng.int(2, 99)} ${num(rng, 7)}`,
    register: (rng, c) => `REA ${c.slice(0, 2).toUpperCase()}-${num(rng, 6)} – Cap. Soc. € ${rng.pick(['10.000,00', '50.000,00', '120.000,00 i.v.'])}`,
    banks: ['Intesa Sanpaolo', 'UniCredit', 'Banco BPM', 'BPER Banca', 'Monte dei Paschi di Siena'],
    ibanParts: [
      [1, UPPER],
      [10, D],
      [12, D],
    ],
  },
  NL: {
    code: 'NL',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.21, 0.09],
    tld: 'nl',
    street: (rng, s) => `${s} ${rng.int(1, 300)}${rng.chance(0.15) ? `-${rng.pick(['A', 'B', 'hs'])}` : ''}`,
    cityLine: (rng, c) => `${num(rng, 4)} ${rng.chars(2, UPPER)} ${c}`,
    vatId: (rng) => `NL${num(rng, 9)}B${rng.chars(2, D)}`,
    phone: (rng) => `+31 ${rng.int(10, 79)} ${num(rng, 3)} ${rng.chars(4, D)}`,
    register: (rng) => `KvK ${num(rng, 8)}`,
    banks: ['ING Bank', 'Rabobank', 'ABN AMRO', 'ASN Bank', 'Triodos Bank'],
    ibanParts: [
      [4, UPPER],
      [10, D],
    ],
  },
  PT: {
    code: 'PT',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.23, 0.13, 0.06],
    tld: 'pt',
    street: (rng, s) => `${s}, n.º ${rng.int(1, 300)}${rng.chance(0.3) ? `, ${rng.int(1, 6)}.º ${rng.pick(['Esq.', 'Dto.'])}` : ''}`,
    cityLine: (rng, c) => `${num(rng, 4)}-${rng.chars(3, D)} ${c}`,
    vatId: (rng) => `${rng.pick(['PT', ''])}${rng.pick(['5', '2'])}${rng.chars(8, D)}`,
    phone: (rng) => `+351 ${rng.pick(['21', '22', '91', '93', '96'])}${rng.chars(1, D)} ${rng.chars(3, D)} ${rng.chars(3, D)}`,
    register: (rng, c) => `Capital social € ${rng.pick(['5.000,00', '50.000,00', '250.000,00'])} – Matriculada na C.R.C. de ${c} sob o n.º ${num(rng, 9)}`,
    banks: ['Caixa Geral de Depósitos', 'Millennium bcp', 'Novo Banco', 'Banco BPI', 'Santander Totta'],
    ibanParts: [[21, D]],
  },
  GB: {
    code: 'GB',
    currency: { code: 'GBP', symbol: '£' },
    vatRates: [0.2, 0.05],
    tld: 'co.uk',
    street: (rng, s) => `${rng.chance(0.3) ? `Unit ${rng.int(1, 40)}, ` : ''}${rng.int(1, 220)} ${s}`,
    cityLine: (rng, c) => `${c} ${rng.chars(2, UPPER)}${rng.int(1, 20)} ${rng.int(1, 9)}${rng.chars(2, 'ABDEFGHJLNPQRSTUWXYZ')}`,
    vatId: (rng) => `GB ${num(rng, 3)} ${rng.chars(4, D)} ${rng.chars(2, D)}`,
    phone: (rng) => rng.pick([`+44 ${rng.int(20, 29)} ${num(rng, 4)} ${rng.chars(4, D)}`, `0${rng.int(113, 191)} ${num(rng, 3)} ${rng.chars(4, D)}`]),
    register: (rng) => `Registered in England and Wales, Company No. ${rng.chars(8, D)}`,
    banks: ['Barclays', 'HSBC UK', 'Lloyds Bank', 'NatWest', 'Santander UK'],
    ibanParts: [
      [4, UPPER],
      [14, D],
    ],
  },
  IE: {
    code: 'IE',
    currency: { code: 'EUR', symbol: '€' },
    vatRates: [0.23, 0.135, 0.09],
    tld: 'ie',
    street: (rng, s) => `${rng.int(1, 120)} ${s}`,
    cityLine: (rng, c) => `${c}${rng.chance(0.5) ? ` ${rng.chars(1, 'ADEFHKNPRTVWXY')}${rng.chars(2, D)} ${rng.chars(4, 'ACDEFHKNPRTVWXY0123456789')}` : ''}`,
    vatId: (rng) => `IE${num(rng, 7)}${rng.chars(1, UPPER)}`,
    phone: (rng) => `+353 ${rng.int(1, 99)} ${num(rng, 3)} ${rng.chars(4, D)}`,
    register: (rng) => `Registered in Ireland No. ${num(rng, 6)}`,
    banks: ['AIB', 'Bank of Ireland', 'Permanent TSB'],
    ibanParts: [
      [4, UPPER],
      [14, D],
    ],
  },
  US: {
    code: 'US',
    currency: { code: 'USD', symbol: '$' },
    vatRates: [0.0825, 0.07, 0.06, 0.08875],
    tld: 'com',
    street: (rng, s) => `${rng.int(10, 9800)} ${s}${rng.chance(0.3) ? `, Suite ${rng.int(100, 900)}` : ''}`,
    cityLine: (rng, c) => `${c} ${rng.chars(5, D)}`,
    vatId: (rng) => `${rng.chars(2, D)}-${rng.chars(7, D)}`,
    phone: (rng) => rng.pick([`(${rng.int(201, 989)}) ${num(rng, 3)}-${rng.chars(4, D)}`, `+1 ${rng.int(201, 989)}-${num(rng, 3)}-${rng.chars(4, D)}`]),
    register: () => '',
    banks: ['JPMorgan Chase Bank', 'Bank of America', 'Wells Fargo', 'U.S. Bank'],
    ibanParts: [],
  },
} satisfies Record<string, Base>;
