import type { PageText, Word } from '../../../src/extraction/types.ts';

/** Lays out text lines as word boxes: each line is [text] or [text, x]; "   " (3+ spaces) leaves a column gap. */
export function page(lines: (string | [string, number])[], opts: { page?: number; source?: 'text-layer' | 'ocr'; charW?: number } = {}): PageText {
  const charW = opts.charW ?? 6;
  const words: Word[] = [];
  lines.forEach((l, i) => {
    const [text, x0] = typeof l === 'string' ? [l, 40] : l;
    for (const m of text.matchAll(/\S+/g))
      words.push({ text: m[0], x: x0 + m.index * charW, y: 40 + i * 14, width: m[0].length * charW, height: 10, confidence: opts.source === 'ocr' ? 85 : 100 });
  });
  return { page: opts.page ?? 1, width: 600, height: 40 + lines.length * 14 + 40, words, source: opts.source ?? 'text-layer', ms: 1 };
}
