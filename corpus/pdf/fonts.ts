// Fonts for the corpus: pdfkit's standard PDF fonts always, plus TrueType families found on the machine
// (Debian's fonts-dejavu-core / fonts-liberation; optional — without them every document uses a standard font).
// A document draws a slot of the fixed catalogue below, so the random choices (and the ground truth) never depend
// on which fonts are installed; a slot whose files are missing falls back to a standard font.

import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export interface FontFace {
  /** A pdfkit standard font name, or a TrueType file path. */
  regular: string;
  bold: string;
  /** Fixed-pitch faces suit till receipts. */
  mono: boolean;
  label: string;
}

const STANDARD: FontFace[] = [
  { regular: 'Helvetica', bold: 'Helvetica-Bold', mono: false, label: 'Helvetica' },
  { regular: 'Times-Roman', bold: 'Times-Bold', mono: false, label: 'Times' },
  { regular: 'Courier', bold: 'Courier-Bold', mono: true, label: 'Courier' },
];

/** [label, regular file, bold file, mono]. */
const TRUETYPE: ReadonlyArray<readonly [string, string, string, boolean]> = [
  ['DejaVu Sans', 'DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', false],
  ['DejaVu Serif', 'DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf', false],
  ['DejaVu Sans Condensed', 'DejaVuSansCondensed.ttf', 'DejaVuSansCondensed-Bold.ttf', false],
  ['DejaVu Sans Mono', 'DejaVuSansMono.ttf', 'DejaVuSansMono-Bold.ttf', true],
  ['Liberation Sans', 'LiberationSans-Regular.ttf', 'LiberationSans-Bold.ttf', false],
  ['Liberation Serif', 'LiberationSerif-Regular.ttf', 'LiberationSerif-Bold.ttf', false],
  ['Liberation Sans Narrow', 'LiberationSansNarrow-Regular.ttf', 'LiberationSansNarrow-Bold.ttf', false],
  ['Liberation Mono', 'LiberationMono-Regular.ttf', 'LiberationMono-Bold.ttf', true],
];

const FONT_DIRS = ['/usr/share/fonts', '/usr/local/share/fonts', path.join(process.env.HOME ?? '/root', '.fonts')];

let found: Map<string, string> | undefined;
/**
 * From now on every slot is a standard PDF font, whatever is installed: `npm run train` needs the same pages on every
 * machine to reproduce its weights byte for byte.
 */
export function useStandardFontsOnly(): void {
  found = new Map();
}

/** TrueType files by base name, from the usual font folders (searched once). */
function fontFiles(): Map<string, string> {
  if (found) return found;
  found = new Map();
  const walk = (dir: string, depth: number) => {
    if (depth > 4 || !existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p, depth + 1);
      else if (name.endsWith('.ttf') && !found!.has(name)) found!.set(name, p);
    }
  };
  for (const d of FONT_DIRS) walk(d, 0);
  return found;
}

/** Slots of the catalogue: the standard fonts, then every TrueType family (installed or not). */
export const FONT_SLOTS = STANDARD.length + TRUETYPE.length;
export const MONO_SLOTS = [2, ...TRUETYPE.flatMap(([, , , mono], i) => (mono ? [STANDARD.length + i] : []))];

/** The face of a slot; a TrueType slot whose files are not installed is the standard font of the same kind. */
export function fontFace(slot: number): FontFace {
  if (slot < STANDARD.length) return STANDARD[slot]!;
  const [label, regular, bold, mono] = TRUETYPE[slot - STANDARD.length]!;
  const files = fontFiles();
  const r = files.get(regular);
  const b = files.get(bold);
  if (r && b) return { regular: r, bold: b, mono, label };
  return mono ? STANDARD[2]! : label.includes('Serif') ? STANDARD[1]! : STANDARD[0]!;
}

/** The TrueType families present on this machine (for the report). */
export function installedTrueTypeFamilies(): string[] {
  const files = fontFiles();
  return TRUETYPE.filter(([, r, b]) => files.has(r) && files.has(b)).map(([label]) => label);
}
