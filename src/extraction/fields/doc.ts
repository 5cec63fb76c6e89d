// One invoice's reading context, computed once: lines, languages, number and date habits, and the labels of
// every line (field, languages, strength, offsets).
import { detectLanguages, languageData, type LangCode } from '../lang/index.ts';
import { columnMatcher, labelMatcher, type ColumnKind, type Hit, type LabelField } from '../lang/vocab.ts';
import type { PageText } from '../types.ts';
import { detectDecimalSeparator, type DecimalSeparator } from './amounts.ts';
import { inferDayFirst } from './dates.ts';
import { documentLines, type Line } from './layout.ts';
import { qualifyTotals } from './qualifiers.ts';

export interface InvoiceDoc {
  pages: PageText[];
  lines: Line[];
  text: string;
  /** Detected languages, best first (several when close). */
  langs: LangCode[];
  dec: DecimalSeparator | undefined;
  dayFirst: boolean;
  /** Label hits per line (same index as `lines`). */
  hits: Hit<LabelField>[][];
  /** Column-header hits per line. */
  columnHits: Hit<ColumnKind>[][];
  /** Median line height: the unit of vertical distances. */
  lineHeight: number;
}

/** OCR reads a German ß as B ("GroBhandel", "StrauB"): a capital B after a small letter, inside or ending a word. */
const ESZETT_READ_AS_B = /(?<=\p{Ll})B(?![\p{Lu}\d])/gu;

/** The page was read by OCR (a scan or photo), not from a text layer. */
export const ocrPage = (pages: readonly PageText[], page: number): boolean => pages.some((p) => p.page === page && p.source === 'ocr');

/** The lines of OCR'd pages with each ß read as B put back (same length: offsets and boxes stay). */
function eszettBack(lines: Line[], pages: PageText[]): Line[] {
  const fix = (s: string) => s.replace(ESZETT_READ_AS_B, 'ß');
  return lines.map((l) => {
    if (!ocrPage(pages, l.page)) return l;
    const text = fix(l.text);
    return text === l.text ? l : { ...l, text, words: l.words.map((w) => ({ ...w, text: fix(w.text) })) };
  });
}

export function readDoc(pages: PageText[]): InvoiceDoc {
  const read = documentLines(pages);
  const { langs } = detectLanguages(read.map((l) => l.text).join('\n'));
  const lines = langs.includes('de') ? eszettBack(read, pages) : read;
  const text = lines.map((l) => l.text).join('\n');
  const primary = languageData(langs[0]!);
  const labels = labelMatcher();
  const columns = columnMatcher();
  const heights = lines.map((l) => l.height).sort((a, b) => a - b);
  return {
    pages,
    lines,
    text,
    langs,
    dec: detectDecimalSeparator(text, primary.decimal),
    dayFirst: inferDayFirst(text, langs),
    hits: lines.map((l) => qualifyTotals(l.text, labels.find(l.text))),
    columnHits: lines.map((l) => columns.find(l.text)),
    lineHeight: heights[Math.floor(heights.length / 2)] ?? 10,
  };
}

/** How much a label counts: strong labels 3, generic ones 1.2; a label of none of the document's languages less. */
export function labelWeight(doc: InvoiceDoc, hit: Hit<LabelField>): number {
  const own = hit.langs.some((l) => doc.langs.includes(l));
  return (hit.weak ? 1.2 : 3) * (own ? 1 : 0.75);
}
