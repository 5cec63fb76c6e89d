// Is a PDF page blank? Decided before any OCR, because a blank page rendered at 300 DPI and OCR'd costs about a
// second of a worker for nothing (issue 13: 2,000 blank pages held the pool for 55 s). Two cheap checks, in order:
//  1. the page's operator list paints nothing (no path is filled or stroked, no text shown, no image or shading
//     drawn) — a few ms, no rendering at all;
//  2. otherwise a small render (INK_CHECK_DPI) has no pixel darker than INK_LEVEL in any channel.
// Both err towards "not blank": an operator this file does not know counts as painting, and a single pale-grey
// pixel counts as ink, so a scanned page (an image, however light) is always OCR'd.

type Ops = Record<string, number>;

/** Operators that only set state, build paths, or group others: none of them puts a mark on the page. */
const NON_PAINTING = [
  'dependency',
  'setLineWidth',
  'setLineCap',
  'setLineJoin',
  'setMiterLimit',
  'setDash',
  'setRenderingIntent',
  'setFlatness',
  'setGState',
  'save',
  'restore',
  'transform',
  'moveTo',
  'lineTo',
  'curveTo',
  'curveTo2',
  'curveTo3',
  'closePath',
  'rectangle',
  'endPath',
  'clip',
  'eoClip',
  'beginText',
  'endText',
  'setCharSpacing',
  'setWordSpacing',
  'setHScale',
  'setLeading',
  'setFont',
  'setTextRenderingMode',
  'setTextRise',
  'moveText',
  'setLeadingMoveText',
  'setTextMatrix',
  'nextLine',
  'setCharWidth',
  'setCharWidthAndBounds',
  'setStrokeColorSpace',
  'setFillColorSpace',
  'setStrokeColor',
  'setStrokeColorN',
  'setFillColor',
  'setFillColorN',
  'setStrokeGray',
  'setFillGray',
  'setStrokeRGBColor',
  'setFillRGBColor',
  'setStrokeCMYKColor',
  'setFillCMYKColor',
  'markPoint',
  'markPointProps',
  'beginMarkedContent',
  'beginMarkedContentProps',
  'endMarkedContent',
  'beginCompat',
  'endCompat',
  'paintFormXObjectBegin',
  'paintFormXObjectEnd',
  'beginGroup',
  'endGroup',
  'beginAnnotation',
  'endAnnotation',
  'setStrokeTransparent',
  'setFillTransparent',
];

/** Resolution of the ink check: an A4 page is ~300 × 420 px, rendered in 10–20 ms. */
export const INK_CHECK_DPI = 36;
/**
 * A pixel with any channel below this is ink. Set high on purpose: a faint scan drawn small (light-grey 5 pt text)
 * still reaches ~215 at INK_CHECK_DPI, while a page painted only white stays at 255. A blank scan with a grey
 * tint is then OCR'd rather than skipped, which costs time but never loses text.
 */
export const INK_LEVEL = 240;

let nonPainting: { ops: Ops; codes: Set<number> } | undefined;

/**
 * Whether pdf.js's operator list of a page marks the page. Paths arrive as `constructPath` whose first argument is
 * the painting operator (fill, stroke, …, or endPath for a path that is only a clip).
 */
export function paintsSomething(ops: Ops, fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>): boolean {
  if (nonPainting?.ops !== ops) nonPainting = { ops, codes: new Set(NON_PAINTING.map((n) => ops[n]).filter((c) => c !== undefined)) };
  const { codes } = nonPainting;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    if (fn === ops.constructPath) {
      if ((argsArray[i] as unknown[] | null)?.[0] !== ops.endPath) return true;
    } else if (!codes.has(fn)) return true;
  }
  return false;
}

/** Whether RGBA pixels (drawn over white) hold any ink. */
export function hasInk(rgba: ArrayLike<number>): boolean {
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i]! < INK_LEVEL || rgba[i + 1]! < INK_LEVEL || rgba[i + 2]! < INK_LEVEL) return true;
  }
  return false;
}
