import { esc } from '../html.ts';

const WIDTH = 640;
const LABEL = 240;
const VALUE = 100;
const ROW = 26;
const BAR = 18;

/**
 * A horizontal bar chart as inline SVG (no script, no external asset): one bar per row, scaled to the largest.
 * Bars take the brand colour from the stylesheet (.chart .bar).
 */
export function barChart(title: string, rows: ReadonlyArray<{ label: string; value: number }>, format: (v: number) => string): string {
  if (rows.length === 0) return '';
  const max = Math.max(...rows.map((r) => r.value), 0) || 1;
  const span = WIDTH - LABEL - VALUE;
  const height = rows.length * ROW + 4;
  const bars = rows
    .map((r, i) => {
      const y = i * ROW + 2;
      const w = Math.max(r.value > 0 ? 2 : 0, Math.round((Math.max(r.value, 0) / max) * span));
      const name = r.label.length > 30 ? `${r.label.slice(0, 29)}…` : r.label;
      return `<g><title>${esc(`${r.label}: ${format(r.value)}`)}</title>
<text class="label" x="${LABEL - 8}" y="${y + BAR / 2}" text-anchor="end" dominant-baseline="central">${esc(name)}</text>
<rect class="bar" x="${LABEL}" y="${y}" width="${w}" height="${BAR}" rx="3"></rect>
<text class="value" x="${LABEL + w + 6}" y="${y + BAR / 2}" dominant-baseline="central">${esc(format(r.value))}</text></g>`;
    })
    .join('\n');
  return `<figure class="chart"><svg role="img" aria-label="${esc(title)}" viewBox="0 0 ${WIDTH} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">
${bars}
</svg><figcaption>${esc(title)}</figcaption></figure>`;
}
