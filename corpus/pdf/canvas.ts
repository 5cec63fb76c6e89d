// A page canvas that records what to draw (text, rules, boxes) and writes the PDF at the end with pdfkit, so a
// layout knows its page count (for "Page 1 of 3") before anything is written, and a till receipt its height.
// Coordinates are points from the top-left corner; `y` is the top of a text line.

import PDFDocument from 'pdfkit';
import type { FontFace } from './fonts.ts';
import { outline } from './logo.ts';
import { drawOrder, writeRun, type Producer } from './producer.ts';
import { Rng } from '../random.ts';

export interface TextOptions {
  size?: number;
  bold?: boolean;
  align?: 'left' | 'right' | 'center';
  /** Grey level 0 (black) … 1, or a hex colour. */
  color?: string;
}

type Op =
  | { kind: 'text'; s: string; x: number; y: number; w: number; size: number; bold: boolean; color: string }
  | { kind: 'shape'; s: string; d: string; x: number; y: number; w: number; size: number; scale: number; ascent: number; color: string }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; width: number; color: string }
  | { kind: 'rect'; x: number; y: number; w: number; h: number; fill: string | null; stroke: boolean };

export interface PageSize {
  width: number;
  height: number;
}

/** A fixed date in the file's metadata: the same seed writes the same bytes. */
const FIXED_DATE = new Date(Date.UTC(2024, 0, 1));

export class Canvas {
  private readonly doc: PDFKit.PDFDocument;
  private readonly pages: Op[][] = [];

  constructor(
    readonly face: FontFace,
    readonly size: PageSize,
    private readonly title = 'Invoice',
    /** How text is written into the content stream (producer.ts); clean unless given. */
    private readonly producer: Producer = { style: 'clean', rng: new Rng('clean') },
  ) {
    this.doc = new PDFDocument({ autoFirstPage: false, margin: 0, compress: true, info: { CreationDate: FIXED_DATE, Producer: 'corpus', Title: title } });
    this.doc.registerFont('R', face.regular);
    this.doc.registerFont('B', face.bold);
    this.newPage();
  }

  get pageCount(): number {
    return this.pages.length;
  }
  /** 0-based index of the page being drawn. */
  page = 0;

  newPage(): void {
    this.pages.push([]);
    this.page = this.pages.length - 1;
  }
  /** Draw on an earlier page (footers, page numbers). */
  onPage(i: number): void {
    this.page = i;
  }

  measure(s: string, size: number, bold = false): number {
    return this.doc
      .font(bold ? 'B' : 'R')
      .fontSize(size)
      .widthOfString(s);
  }

  /** Draws `s` with its left edge, right edge or centre at `x`; returns its width. */
  text(s: string, x: number, y: number, o: TextOptions = {}): number {
    if (!s) return 0;
    const size = o.size ?? 9;
    const bold = o.bold ?? false;
    const w = this.measure(s, size, bold);
    const left = o.align === 'right' ? x - w : o.align === 'center' ? x - w / 2 : x;
    this.pages[this.page]!.push({ kind: 'text', s, x: left, y, w, size, bold, color: o.color ?? '#111111' });
    return w;
  }

  /** Draws `s` as a logo (vector paths, not text: pdf/logo.ts) placed like `text`; returns its width. */
  logo(s: string, x: number, y: number, o: TextOptions = {}): number {
    const size = o.size ?? 9;
    const { d, width: w, scale, ascent } = outline(this.doc, s, size);
    const left = o.align === 'right' ? x - w : o.align === 'center' ? x - w / 2 : x;
    this.pages[this.page]!.push({ kind: 'shape', s, d, x: left, y, w, size, scale, ascent, color: o.color ?? '#111111' });
    return w;
  }

  /** Where logos were drawn: page index (0-based) and box, in points from the top-left corner. */
  logos(): Array<{ page: number; x: number; y: number; w: number; h: number }> {
    return this.pages.flatMap((ops, page) => ops.flatMap((o) => (o.kind === 'shape' ? [{ page, x: o.x, y: o.y, w: o.w, h: o.size * 1.2 }] : [])));
  }

  /** Words of `s` in lines no wider than `width`. */
  wrap(s: string, width: number, size: number, bold = false): string[] {
    const lines: string[] = [];
    let cur = '';
    for (const word of s.split(/\s+/).filter(Boolean)) {
      const next = cur ? `${cur} ${word}` : word;
      if (cur && this.measure(next, size, bold) > width) {
        lines.push(cur);
        cur = word;
      } else cur = next;
    }
    if (cur) lines.push(cur);
    return lines;
  }

  line(x1: number, y1: number, x2: number, y2: number, width = 0.5, color = '#444444'): void {
    this.pages[this.page]!.push({ kind: 'line', x1, y1, x2, y2, width, color });
  }

  rect(x: number, y: number, w: number, h: number, o: { fill?: string; stroke?: boolean } = {}): void {
    this.pages[this.page]!.push({ kind: 'rect', x, y, w, h, fill: o.fill ?? null, stroke: o.stroke ?? true });
  }

  /** The lowest point drawn on a page (a till receipt's page ends a little below it). */
  bottom(i = this.page): number {
    let max = 0;
    for (const op of this.pages[i]!)
      max = Math.max(max, op.kind === 'text' || op.kind === 'shape' ? op.y + op.size * 1.2 : op.kind === 'line' ? Math.max(op.y1, op.y2) : op.y + op.h);
    return max;
  }

  /** Layout faults: text running off the page (left or right), and pairs of texts drawn over each other. */
  faults(): string[] {
    const out: string[] = [];
    this.pages.forEach((ops, p) => {
      // A logo takes room like text.
      const texts = ops.filter((o) => o.kind === 'text' || o.kind === 'shape');
      for (const a of texts) if (a.x < -0.5 || a.x + a.w > this.size.width + 0.5) out.push(`page ${p + 1}: "${a.s}" runs off the page`);
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          const [a, b] = [texts[i]!, texts[j]!];
          const dy = Math.min(a.y + a.size, b.y + b.size) - Math.max(a.y, b.y);
          const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
          if (dy > 0.4 * Math.min(a.size, b.size) && dx > 1) out.push(`page ${p + 1}: "${a.s}" overlaps "${b.s}"`);
        }
      }
    });
    return out;
  }

  /** Writes the PDF; `height` overrides the page height (till receipts). */
  finish(height?: number): Promise<Buffer> {
    const doc = this.doc;
    const done = new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      doc.on('data', (c: Buffer) => chunks.push(c));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
    });
    for (const ops of this.pages) {
      doc.addPage({ size: [this.size.width, height ?? this.size.height], margin: 0 });
      // Boxes first so that fills never hide text drawn before them; then logos.
      for (const op of ops) {
        if (op.kind === 'shape') {
          doc
            .save()
            .translate(op.x, op.y + op.ascent)
            .scale(op.scale, -op.scale)
            .path(op.d)
            .fill(op.color)
            .restore();
          continue;
        }
        if (op.kind !== 'rect') continue;
        if (op.fill && op.stroke) doc.rect(op.x, op.y, op.w, op.h).lineWidth(0.5).fillAndStroke(op.fill, '#444444');
        else if (op.fill) doc.rect(op.x, op.y, op.w, op.h).fill(op.fill);
        else doc.rect(op.x, op.y, op.w, op.h).lineWidth(0.6).stroke('#444444');
      }
      const texts = ops.filter((o) => o.kind === 'text');
      const order = drawOrder(texts, this.producer);
      // In stream order, unless the producer writes its text in an order of its own (after the rules, then).
      for (const op of order === texts ? ops : [...ops.filter((o) => o.kind === 'line'), ...order]) {
        if (op.kind === 'line') doc.moveTo(op.x1, op.y1).lineTo(op.x2, op.y2).lineWidth(op.width).stroke(op.color);
        else if (op.kind === 'text') writeRun(doc, op.bold ? 'B' : 'R', op, this.producer);
      }
    }
    doc.end();
    return done;
  }
}
