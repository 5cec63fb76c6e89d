// Recognising the same vendor across invoices: case, accents, punctuation and legal forms do not matter
// ("SYSCO Corp." = "Sysco Corporation"; "Ozols SIA" = 'SIA "Ozols"'). The normalised name is a stored key: a change
// to LEGAL_FORMS splits or merges existing vendors.
import { LEGAL_FORMS } from '../../platform/lib/legal-forms.ts';

export function normalizeVendorName(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  const kept = words.filter((w) => !LEGAL_FORMS.has(w));
  while (kept.length > 1 && kept[kept.length - 1] === 'and') kept.pop(); // "Müller GmbH & Co. KG"
  return (kept.length > 0 ? kept : words).join(' ');
}
