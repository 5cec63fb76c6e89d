// Runs of text → words in lines, by geometry alone: the same words and order whatever order the producer wrote the
// content stream in, and however it cut the text into runs (glyph by glyph, word by word, a word in pieces).
// Coordinates are in the frame of the page's text direction: u along the text, v down the page, baseline at v.

/** A whitespace-free piece of one text item. */
export interface Run {
  text: string;
  u0: number;
  u1: number;
  /** Baseline. */
  v: number;
  /** Font size, points. */
  size: number;
  /** Ascent and descent as fractions of the size. */
  ascent: number;
  descent: number;
  /**
   * Index of its text item: pieces of one item are never joined (the item put a space between them). Whether a
   * space follows a run in its item says nothing about runs of other items: a fake space pdf.js put in an item may
   * span glyphs the producer wrote elsewhere in the stream ("Ma" … "i" … " 2022").
   */
  item: number;
  /** Its item holds single characters only ("R E C H N U N G"): the only kind that may be letter-spaced text. */
  singles: boolean;
}

export interface FrameWord {
  text: string;
  u0: number;
  u1: number;
  top: number;
  bottom: number;
}

/** Runs whose baselines lie within this many ems of the smaller size share a line. */
const BASELINE_TOLERANCE = 0.2;
/** Runs of different items join into a word when the gap between them is below this many ems (pdf.js: a space is ≥ 0.102 em). */
const JOIN_GAP = 0.1;
/** …and above this (overlap, as kerned or re-positioned pieces do). */
const JOIN_OVERLAP = -0.3;
/** Single characters in a row, evenly spaced, read as one letter-spaced word from this many on. */
const SPACED_MIN = 4;

const top = (r: Run) => r.v - r.ascent * r.size;
const bottom = (r: Run) => r.v + r.descent * r.size;

interface Line {
  v: number;
  size: number;
  runs: Run[];
}

/** Groups runs into lines by baseline (sizes may differ on one baseline), lines top to bottom. */
function baselineLines(runs: Run[]): Line[] {
  const lines: Line[] = [];
  for (const r of [...runs].sort((a, b) => a.v - b.v || a.u0 - b.u0)) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(r.v - line.v) <= BASELINE_TOLERANCE * Math.min(r.size, line.size)) {
      line.runs.push(r);
      line.size = Math.max(line.size, r.size);
    } else lines.push({ v: r.v, size: r.size, runs: [r] });
  }
  return lines;
}

/**
 * Superscripts, subscripts and baseline shifts: a run smaller than the line beside it, within that line's band and
 * touching one of its runs, belongs to that line (not to a line of its own between two others).
 */
function attachShifted(lines: Line[]): Line[] {
  // Lines are in baseline order: a host lies within a few ems above or below.
  lines.forEach((small, i) => {
    for (const r of [...small.runs]) {
      let host: Line | undefined;
      for (let k = i - 1; !host && k >= 0 && lines[k]!.v >= r.v - 2 * lines[k]!.size; k--) if (hosts(lines[k]!, r)) host = lines[k];
      for (let k = i + 1; !host && k < lines.length && lines[k]!.v <= r.v + 2 * lines[k]!.size; k++) if (hosts(lines[k]!, r)) host = lines[k];
      if (!host) continue;
      small.runs.splice(small.runs.indexOf(r), 1);
      host.runs.push(r);
    }
  });
  return lines.filter((l) => l.runs.length > 0);
}

const hosts = (h: Line, r: Run): boolean =>
  r.size < 0.85 * h.size &&
  h.runs.some(
    (o) =>
      r.size < 0.85 * o.size &&
      top(r) >= top(o) - 0.15 * o.size &&
      bottom(r) <= bottom(o) + 0.15 * o.size &&
      Math.max(r.u0 - o.u1, o.u0 - r.u1) <= 0.3 * o.size,
  );

/** Drops a run drawn again over itself (shadow, faux bold): same text, same place. */
function dropOverprints(runs: Run[]): Run[] {
  const seen = new Map<string, Run[]>();
  return runs.filter((r) => {
    const key = `${r.text}|${Math.round(r.v)}`;
    const same = seen.get(key) ?? [];
    if (same.some((o) => Math.abs(o.u0 - r.u0) < 0.2 * r.size && Math.abs(o.v - r.v) < 0.2 * r.size)) return false;
    if (!seen.has(key)) seen.set(key, same);
    same.push(r);
    return true;
  });
}

interface Piece {
  text: string;
  runs: Run[];
  u0: number;
  u1: number;
}

const canJoin = (a: Run, b: Run): boolean => {
  const m = Math.min(a.size, b.size);
  const gap = b.u0 - a.u1;
  return a.item !== b.item && Math.abs(a.v - b.v) <= 0.12 * m && gap < JOIN_GAP * m && gap > JOIN_OVERLAP * m;
};

/** Runs of a line (left to right) → words: touching runs of different items are one word. */
function joinRuns(runs: Run[]): Piece[] {
  const out: Piece[] = [];
  for (const r of runs) {
    const prev = out[out.length - 1];
    if (prev && canJoin(prev.runs[prev.runs.length - 1]!, r)) {
      prev.text += r.text;
      prev.runs.push(r);
      prev.u1 = Math.max(prev.u1, r.u1);
    } else out.push({ text: r.text, runs: [r], u0: r.u0, u1: r.u1 });
  }
  return out;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Letter-spaced text ("R E C H N U N G", or character spacing pdf.js turned into spaces): at least SPACED_MIN single
 * characters in a row of one size, each from a text item of single characters only, their usual (median) gap
 * under half an em, read as words; a gap well over the usual one (1.6×) is a space between two letter-spaced words.
 * Single characters that run on from other words at the same spacing ("gazeuse 6 x 1 L"), fewer of them, or wide
 * gaps are left alone.
 */
function joinLetterSpaced(words: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < words.length;) {
    let j = i;
    const size = words[i]!.runs[0]!.size;
    const single = (w: Piece) => w.runs.length === 1 && w.runs[0]!.singles && [...w.text].length === 1 && Math.abs(w.runs[0]!.size - size) <= 0.1 * size;
    // A row runs on across word gaps (up to 1.5 em); the gaps between its letters are what it usually has.
    while (j < words.length && single(words[j]!) && (j === i || words[j]!.u0 - words[j - 1]!.u1 < 1.5 * size)) j++;
    const row = words.slice(i, j);
    const gaps = row.slice(1).map((w, k) => w.u0 - row[k]!.u1);
    const usual = Math.max(median(gaps), 0.02 * size);
    // Text the row runs into at its usual spacing makes it ordinary words ("… gazeuse 6 x 1 L").
    const before = words[i - 1];
    const after = words[j];
    const runsOn = () => (before && row[0]!.u0 - before.u1 < 1.6 * usual) || (after && after.u0 - row[row.length - 1]!.u1 < 1.6 * usual);
    if (row.length < SPACED_MIN || usual > 0.5 * size || runsOn()) {
      // Its tails would fail alike (shorter, or running on from the same words): on past the row.
      out.push(...(row.length ? row : [words[i]!]));
      i += Math.max(1, row.length);
      continue;
    }
    let cur: Piece = { ...row[0]!, runs: [...row[0]!.runs] };
    row.slice(1).forEach((w, k) => {
      if (gaps[k]! > 1.6 * usual) {
        out.push(cur);
        cur = { ...w, runs: [...w.runs] };
      } else {
        cur.text += w.text;
        cur.runs.push(...w.runs);
        cur.u1 = w.u1;
      }
    });
    out.push(cur);
    i = j;
  }
  return out;
}

/** Runs → words in reading order: lines top to bottom, words left to right. */
export function runsToWords(all: Run[]): FrameWord[] {
  const lines = attachShifted(baselineLines(dropOverprints(all)));
  lines.sort((a, b) => a.v - b.v);
  const out: FrameWord[] = [];
  for (const line of lines) {
    const words = joinLetterSpaced(joinRuns(line.runs.sort((a, b) => a.u0 - b.u0 || a.v - b.v)));
    // The line's band, weighted by characters: words far off it (a superscript, a much smaller size on the
    // baseline) are stretched to reach it, so that whoever groups words by their boxes keeps them on this line.
    const chars = line.runs.flatMap((r) => Array.from({ length: r.text.length }, () => r));
    const bandTop = median(chars.map(top));
    const bandBottom = median(chars.map(bottom));
    for (const w of words) {
      let t = Math.min(...w.runs.map(top));
      let b = Math.max(...w.runs.map(bottom));
      const off = Math.abs((t + b) / 2 - (bandTop + bandBottom) / 2);
      if (off > 0.3 * Math.min(b - t, bandBottom - bandTop)) [t, b] = [Math.min(t, bandTop), Math.max(b, bandBottom)];
      out.push({ text: w.text, u0: w.u0, u1: w.u1, top: t, bottom: b });
    }
  }
  return out;
}
