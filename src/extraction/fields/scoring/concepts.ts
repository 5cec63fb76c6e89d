// What the words beside a value are about, without needing the exact label: each word of the key text is matched to
// concepts (invoice, number, date, due, customer, order, tax id, …) by stems in several languages, tolerating
// compounds ("Rechnungsnummer"), abbreviations that start a stem ("Rechn.", "Fact."), a typo in a long word and ALL
// CAPS. The stems are general invoice words, not any document's labels; the learned scorer weighs what they mean.
import { fold } from '../../lang/vocab.ts';

// prettier-ignore
export const CONCEPTS = [
  'invoice', 'number', 'date', 'issue', 'due', 'customer', 'order', 'delivery', 'contract', 'taxId', 'bank', 'contact', 'period', 'print', 'register', 'article', 'page', 'amount', 'total', 'net', 'tax', 'paid', 'seller', 'buyer', 'discount', 'charge', 'preceding', 'director', 'rights',
] as const;
export type Concept = (typeof CONCEPTS)[number];

// Stems per concept, folded (lower case, no accents). A stem of 3 letters or fewer must be a whole word.
// prettier-ignore
const STEMS: Record<Concept, string[]> = {
  invoice: ['invoice', 'inv', 'bill', 'billing', 'rechnung', 'rg', 'rech', 'facture', 'fact', 'factura', 'fra', 'fattura', 'fatt', 'factuur', 'fatura', 'ft', 'credit note', 'gutschrift', 'avoir', 'abono', 'nota'],
  number: ['number', 'no', 'nr', 'num', 'nummer', 'numero', 'nro', 'n', 'id', 'ident', 'ref', 'reference', 'referenz', 'referencia', 'riferimento', 'referentie', 'code', 'kenn', 'zeichen'],
  date: ['date', 'dated', 'datum', 'fecha', 'data', 'dt', 'day', 'tag', 'jour', 'dia', 'giorno', 'when', 'on', 'le', 'vom', 'del', 'em'],
  issue: ['issue', 'issued', 'issuing', 'ausstell', 'erstell', 'emission', 'emis', 'emissione', 'uitgifte', 'emissao', 'created', 'creation', 'tax point', 'leistungsdatum', 'invoiced'],
  due: ['due', 'payable', 'pay', 'payment', 'faellig', 'fallig', 'zahlbar', 'zahlung', 'zahlungsziel', 'echeance', 'paiement', 'payer', 'vencimiento', 'vence', 'pago', 'scadenza', 'pagamento', 'vervaldatum', 'vervaldag', 'betaling', 'vencimento', 'deadline', 'before', 'until', 'bis', 'avant', 'antes', 'entro', 'voor'],
  customer: ['customer', 'client', 'cliente', 'clienti', 'kunde', 'kunden', 'klant', 'debitor', 'debtor', 'buyer', 'account', 'acct', 'member', 'abonn', 'subscriber'],
  order: ['order', 'po', 'purchase', 'bestell', 'auftrag', 'commande', 'cde', 'pedido', 'ordine', 'bestelling', 'encomenda', 'requisition'],
  delivery: ['delivery', 'deliver', 'ship', 'shipping', 'shipment', 'dispatch', 'despatch', 'liefer', 'versand', 'livraison', 'bl', 'entrega', 'albaran', 'consegna', 'ddt', 'levering', 'pakbon', 'remessa', 'guia', 'packing', 'consignment', 'waybill'],
  contract: ['contract', 'vertrag', 'contrat', 'contrato', 'contratto', 'project', 'projekt', 'projet', 'proyecto', 'progetto', 'job', 'agreement', 'mandat', 'mandate', 'cost centre', 'cost center', 'kostenstelle'],
  taxId: ['vat', 'ust', 'ustid', 'mwst', 'steuer', 'steuernummer', 'tva', 'iva', 'btw', 'nif', 'cif', 'siret', 'siren', 'tin', 'ein', 'abn', 'gst', 'uid', 'piva', 'fiscal', 'fiscale', 'nipc', 'registration', 'taxpayer', 'identification', 'vatin'],
  bank: ['iban', 'bic', 'swift', 'bank', 'banque', 'banco', 'banca', 'konto', 'blz', 'sort', 'routing', 'aba', 'rib', 'holder', 'inhaber', 'titular', 'beneficiary', 'mandate'],
  contact: ['tel', 'telephone', 'phone', 'fax', 'mobile', 'mobil', 'telefon', 'telefono', 'telefoon', 'gsm', 'email', 'mail', 'web', 'www', 'hotline'],
  period: ['period', 'from', 'to', 'zeitraum', 'periode', 'periodo', 'service', 'leistung', 'prestation', 'servicio', 'servizio', 'start', 'end', 'von', 'bis', 'du', 'au', 'desde', 'hasta', 'dal', 'al', 'van', 'tot', 'month', 'monat'],
  print: ['print', 'printed', 'druck', 'gedruckt', 'impression', 'imprime', 'stampa', 'impresion', 'afgedrukt', 'impresso', 'generated', 'produced'],
  register: ['register', 'registered', 'registr', 'hrb', 'hra', 'handelsregister', 'rcs', 'kvk', 'court', 'amtsgericht', 'company', 'firmenbuch', 'rea', 'chamber', 'capital'],
  article: ['article', 'artikel', 'item', 'sku', 'gtin', 'ean', 'gln', 'iln', 'upc', 'product', 'produkt', 'produit', 'producto', 'prodotto', 'part', 'material', 'pos', 'position', 'line', 'qty', 'quantity', 'menge'],
  page: ['page', 'seite', 'blatt', 'pagina', 'pag', 'pg', 'sheet'],
  amount: ['amount', 'betrag', 'montant', 'importe', 'importo', 'bedrag', 'montante', 'valor', 'value', 'wert', 'sum', 'summe', 'somme', 'suma', 'somma', 'som', 'soma'],
  total: ['total', 'totaal', 'totale', 'gesamt', 'grand', 'endbetrag', 'rechnungsbetrag', 'ttc', 'gross', 'brutto', 'bruto', 'lordo', 'payable', 'balance'],
  net: ['net', 'netto', 'neto', 'nett', 'subtotal', 'sub', 'zwischensumme', 'ht', 'htva', 'excl', 'exkl', 'excluding', 'before', 'imponible', 'imponibile', 'base', 'taxable', 'goods', 'waren', 'items'],
  tax: ['tax', 'vat', 'mwst', 'ust', 'steuer', 'tva', 'iva', 'btw', 'gst', 'hst', 'pst', 'taxe', 'impuesto', 'imposta', 'imposto'],
  paid: ['paid', 'prepaid', 'deposit', 'advance', 'bezahlt', 'anzahlung', 'vorauszahlung', 'acompte', 'paye', 'pagado', 'anticipo', 'pagato', 'betaald', 'voorschot', 'pago', 'received'],
  seller: ['seller', 'vendor', 'supplier', 'from', 'issued by', 'sold by', 'verkaeufer', 'lieferant', 'fournisseur', 'vendeur', 'proveedor', 'vendedor', 'fornitore', 'venditore', 'leverancier', 'verkoper', 'fornecedor', 'emittente', 'emisor', 'remit'],
  discount: ['discount', 'allowance', 'rebate', 'rabatt', 'nachlass', 'skonto', 'remise', 'rabais', 'escompte', 'descuento', 'bonificacion', 'sconto', 'abbuono', 'korting', 'desconto', 'abatimento', 'reduction', 'reduktion', 'less'],
  charge: ['charge', 'surcharge', 'shipping', 'freight', 'carriage', 'postage', 'delivery', 'handling', 'fee', 'fracht', 'versand', 'porto', 'zuschlag', 'gebuehr', 'frais', 'port', 'transport', 'envio', 'portes', 'recargo', 'spedizione', 'trasporto', 'verzendkosten', 'vracht', 'toeslag', 'frete'],
  // An earlier document the invoice refers to (EN 16931 BG-3, preceding invoice reference): its number and date are not this invoice's.
  preceding: ['preceding', 'previous', 'original', 'related', 'corrects', 'corrected', 'correction', 'prior', 'vorausgegangen', 'vorhergehend', 'vorherig', 'ursprung', 'korrektur', 'anterieur', 'anterieure', 'origine', 'rectif', 'liee', 'associe', 'precedent', 'precedente', 'anterior', 'rectificad', 'relacionad', 'asociad', 'originale', 'collegat', 'rettific', 'voorgaand', 'oorspronkelijk', 'gerelateerd', 'correctie', 'retificad', 'associad'],
  // A footer's people and its copyright line: names that are not the issuer's (a person) or not only its name.
  director: ['director', 'directors', 'managing', 'geschaeftsfuehrer', 'geschaeftsfuehrung', 'geschaftsfuhrer', 'vorstand', 'prokurist', 'gerant', 'gerante', 'directeur', 'gerente', 'administrador', 'amministratore', 'bestuurder', 'directie', 'ceo', 'owner', 'proprietor', 'president'],
  rights: ['copyright', 'rights', 'reserved', 'rechte', 'vorbehalten', 'droits', 'reserves', 'derechos', 'reservados', 'diritti', 'riservati', 'rechten', 'voorbehouden', 'direitos'],
  buyer: ['bill to', 'ship to', 'sold to', 'invoice to', 'buyer', 'recipient', 'empfaenger', 'empfanger', 'destinataire', 'destinatario', 'ontvanger', 'adressat', 'attn', 'attention'],
};

interface StemIndex {
  /** Whole-word stems (short ones, and every stem as a whole word). */
  exact: Map<string, Concept[]>;
  /** Stems of 4 letters or more, matched as a word's prefix, inside compounds (5+) or with one typo (6+). */
  long: { stem: string; concept: Concept }[];
  /** Multi-word stems ("bill to"), matched in the folded text. */
  phrases: { stem: string; concept: Concept }[];
}

let index: StemIndex | undefined;
function stemIndex(): StemIndex {
  if (index) return index;
  const exact = new Map<string, Concept[]>();
  const long: StemIndex['long'] = [];
  const phrases: StemIndex['phrases'] = [];
  for (const concept of CONCEPTS)
    for (const stem of STEMS[concept]) {
      if (stem.includes(' ')) {
        phrases.push({ stem, concept });
        continue;
      }
      exact.set(stem, [...(exact.get(stem) ?? []), concept]);
      if (stem.length >= 4) long.push({ stem, concept });
    }
  return (index = { exact, long, phrases });
}

/** Levenshtein distance, stopping early once it exceeds `max`. */
function within(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return false;
    prev = cur;
  }
  return prev[b.length]! <= max;
}

/** The concepts one folded word stands for, each with how sure the match is (1 exact, less for partial matches). */
function wordConcepts(word: string): Map<Concept, number> {
  const { exact, long } = stemIndex();
  const out = new Map<Concept, number>();
  const add = (c: Concept, v: number) => out.set(c, Math.max(out.get(c) ?? 0, v));
  for (const c of exact.get(word) ?? []) add(c, 1);
  if (word.length < 3) return out;
  for (const { stem, concept } of long) {
    if (word === stem) continue;
    if (word.length >= 3 && stem.startsWith(word) && word.length >= Math.min(4, stem.length - 1))
      add(concept, 0.8); // "rechn", "fact"
    else if (word.startsWith(stem))
      add(concept, 0.9); // "invoicing", "rechnungs"
    else if (stem.length >= 5 && word.includes(stem))
      add(concept, 0.8); // "rechnungsnummer", "kundennr"
    else if (stem.length >= 6 && word.length >= 6 && within(word, stem, 1)) add(concept, 0.7); // one typo
  }
  // Compounds ending in a short number word: "kundennr", "rechnungsnr", "bestellno".
  const tail = /(nr|no|num|id)$/.exec(word);
  if (tail && word.length > tail[0].length + 3) add('number', 0.8);
  return out;
}

/** Concept strengths (0–1) of a key text: the best match of each concept among its words and phrases. */
export function conceptsOf(text: string): Map<Concept, number> {
  const folded = fold(text)
    .replace(/©/g, ' copyright ')
    .replace(/[°º#№]/g, ' no ')
    .replace(/n[°º]/g, ' no ');
  const out = new Map<Concept, number>();
  const add = (c: Concept, v: number) => out.set(c, Math.max(out.get(c) ?? 0, v));
  for (const word of folded.split(/[^a-z0-9ßæøœ]+/).filter(Boolean)) {
    if (/^\d+$/.test(word)) continue;
    for (const [c, v] of wordConcepts(word)) add(c, v);
  }
  const spaced = ` ${folded.replace(/[^a-z0-9ßæøœ]+/g, ' ')} `;
  for (const { stem, concept } of stemIndex().phrases) if (spaced.includes(` ${stem} `)) add(concept, 1);
  return out;
}
