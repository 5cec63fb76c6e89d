// Recognising the same vendor across invoices: case, accents, punctuation and legal forms do not matter
// ("SYSCO Corp." = "Sysco Corporation"; "Ozols SIA" = 'SIA "Ozols"').
const LEGAL_FORMS = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'llc',
  'llp',
  'ltd',
  'limited',
  'plc',
  'lp',
  'gmbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'mbh',
  'ev',
  'sarl',
  'sas',
  'sa',
  'sasu',
  'eurl',
  'sci',
  'sprl',
  'bv',
  'nv',
  'srl',
  'spa',
  'sl',
  'oy',
  'ab',
  'as',
  'aps',
  'sia',
  'uab',
  'ou',
  'sdn',
  'bhd',
  'pte',
  'pty',
  'kk',
]);

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
