// Multi-invoice PDFs: consecutive pages belong together until a page starts another invoice
// (a different invoice number under a strong label, or a different vendor read with strong evidence). A
// continuation page that opens with an item's heading or prints "Item No. 30435" starts nothing.
import type { PageText } from '../types.ts';
import { stripAccents } from './dates.ts';
import { readDoc } from './doc.ts';
import { invoiceNumber } from './numbers.ts';
import { pickSeller } from './seller.ts';

export interface PageHeader {
  vendor: string | null;
  number: string | null;
  /** The page prints an invoice's head (a strong invoice-number or invoice-date label): it may start one. */
  head?: boolean;
}

const key = (s: string | null) =>
  s
    ? stripAccents(s)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')
    : null;

export type HeaderReader = (page: PageText) => PageHeader;

export function splitInvoicePages(pages: PageText[], header: HeaderReader = readHeader): PageText[][] {
  const groups: PageText[][] = [];
  let cur: { vendor: string | null; number: string | null; text: string } | null = null;
  for (const page of pages) {
    const h = header(page);
    const v = key(h.vendor);
    const n = key(h.number);
    const text = key(page.words.map((w) => w.text).join(' '))!;
    // Two numbers read are one invoice when each page prints the other's (a registration number read on one).
    const printed = (a: string, t: string) => a.length >= 4 && t.includes(a);
    const otherNumber = cur !== null && n !== null && cur.number !== null && n !== cur.number && !printed(n, cur.text) && !printed(cur.number, text);
    const otherVendor = cur !== null && v !== null && cur.vendor !== null && v !== cur.vendor && n !== cur.number && h.head !== false;
    const differs = otherNumber || otherVendor;
    if (!cur || differs) {
      groups.push([page]);
      cur = { vendor: v, number: n, text };
    } else {
      cur.text += text;
      groups[groups.length - 1]!.push(page);
      cur.vendor ??= v;
      cur.number ??= n;
    }
  }
  return groups;
}

/** Vendor and invoice number printed on one page (only confident vendor names and strongly labelled numbers count). */
export function readHeader(page: PageText): PageHeader {
  const doc = readDoc([page]);
  const vendor = pickSeller(doc);
  const number = invoiceNumber(doc);
  const head = doc.hits.some((hits) => hits.some((h) => !h.weak && (h.field === 'invoiceNumber' || h.field === 'invoiceDate')));
  return { vendor: vendor.confidence >= 80 ? vendor.name : null, number: number && !number.weak ? number.value : null, head };
}
