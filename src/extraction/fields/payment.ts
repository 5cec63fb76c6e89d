// Receipt payment method: cash / card words, card brand, last 4 digits of a masked card number.
import type { PaymentMethod, PaymentMethodType } from '../types.ts';
import { stripAccents } from './dates.ts';

export type { PaymentMethod };

const BRANDS: [RegExp, string][] = [
  [/\bVISA\b/, 'Visa'],
  [/\bMASTER\s?CARD\b|\bMASTER\b|\bMC\b|\bMAESTRO\b/, 'Mastercard'],
  [/\bAMEX\b|\bAMERICAN EXPRESS\b/, 'American Express'],
  [/\bDISCOVER\b/, 'Discover'],
  [/\bJCB\b/, 'JCB'],
  [/\bUNION\s?PAY\b|\bCUP\b/, 'UnionPay'],
  [/\bDINERS\b/, 'Diners Club'],
];

const MOBILE = /\b(APPLE ?PAY|GOOGLE ?PAY|G ?PAY|SAMSUNG ?PAY|PAYPAL|ALIPAY|WECHAT ?PAY|GRAB ?PAY|BOOST|TOUCH ?N ?GO|TNG|E-?WALLET)\b/;
const GIFT = /\b(GIFT ?CARD|GIFT CERT|VOUCHER|KUPONS|DAVANU KARTE|GUTSCHEIN|BON D'ACHAT)\b/;
const CHECK = /\b(CHEQUE|CHECK ?(?:NO|#)|SCHECK)\b/;
const DEBIT = /\b(DEBIT|DEBET|EC[- ]?KARTE|GIROCARD|MAESTRO|INTERAC|DEBETKARTE|BANKKARTE)\b/;
const CREDIT = /\b(CREDIT|KREDIT|CREDITCARD|CARTE BANCAIRE|CB|KREDITKARTE)\b/;
const CARD = /\b(CARD|KARTE|KARTI?[ESA]?|MAKSAJUMU KARTE|BANKAS KARTE|CARTE|TERMINAL|CONTACTLESS|KONTAKTLOS|BEZKONTAKTA|PIN)\b/;
const CASH = /\b(CASH|SKAIDRA NAUDA|SKAIDRAJA NAUDA|SKAIDRI|NAUDA|BARGELD|BAR BEZAHLT|ESPECES|TUNAI|EFECTIVO|CHANGE|ATLIKUMS|IZDOTS|RUCKGELD|RENDU|BAKI)\b/;

export function detectPaymentMethod(text: string): PaymentMethod {
  const t = stripAccents(text).toUpperCase();
  let cardBrand: string | null = null;
  for (const [re, name] of BRANDS)
    if (re.test(t)) {
      cardBrand = name;
      break;
    }
  // A run of mask characters may hold one OCR misread (e.g. ****¥4417).
  const masked = t.match(/(?:[X*#•.]{2,}[^\s\d]?[\s-]*){1,3}(\d{4})\b|\b\d{4,6}[X*#]{4,}(\d{4})\b|\b(?:CARD|KARTE|NO|NR)\.?\s*[:#]?\s*[X*#]+\s?(\d{4})\b/);
  const last4 = masked ? (masked[1] ?? masked[2] ?? masked[3] ?? null) : null;
  let type: PaymentMethodType = 'unknown';
  if (MOBILE.test(t)) type = 'mobile';
  else if (GIFT.test(t)) type = 'gift_card';
  else if (DEBIT.test(t)) type = 'debit';
  else if (cardBrand || last4 || CREDIT.test(t)) type = 'credit';
  else if (CARD.test(t)) type = 'credit';
  else if (CHECK.test(t)) type = 'check';
  else if (CASH.test(t)) type = 'cash';
  return { type, cardBrand, last4 };
}
