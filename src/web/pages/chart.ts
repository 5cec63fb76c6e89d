import { esc } from '../html.ts';

/** How a chart's numbers are printed (on its axis and in tooltips), the way format.ts prints them in tables. */
export type ChartFormat = 'money' | 'hours' | 'percent';
/** Colours come from the stylesheet's variables, so a partner's brand colour leads. */
export type ChartColor = 'brand' | 'muted' | 'ok' | 'warn' | 'bad';

export interface ChartSeries {
  label: string;
  values: ReadonlyArray<number | null>;
  color?: ChartColor;
  /** A line over bars (e.g. a percentage), on its own axis when `axis` is 'right'. */
  type?: 'bar' | 'line';
  axis?: 'left' | 'right';
  /** Bars with the same stack name are stacked. */
  stack?: string;
  /** Per-point colours (e.g. overtime days highlighted); overrides `color` where set. */
  colors?: ReadonlyArray<ChartColor | null>;
}

export interface ChartSpec {
  /** What the chart shows, read out by screen readers (the table beside it holds the same numbers). */
  title: string;
  labels: readonly string[];
  series: readonly ChartSeries[];
  format: ChartFormat;
  /** Format of the right-hand axis, when a series uses it. */
  rightFormat?: ChartFormat;
  /** Bars along the y axis (long category names read better). */
  horizontal?: boolean;
}

const MAX_LABEL = 28;

/**
 * A chart drawn in the browser by Chart.js (served from node_modules at /app/assets/chart.umd.min.js, no CDN) from
 * the JSON in data-chart; assets/charts.js reads it. The figures are the API's, already rounded: the chart only
 * draws them. Every chart sits beside a table with the same numbers, so nothing is lost without script.
 */
export function chart(spec: ChartSpec): string {
  if (spec.labels.length === 0) return '';
  const labels = spec.labels.map((l) => (l.length > MAX_LABEL ? `${l.slice(0, MAX_LABEL - 1)}…` : l));
  const rows = spec.horizontal ? labels.length : 0;
  // Horizontal charts grow with their rows; others take the stylesheet's height.
  const tall = rows > 6 ? ` data-rows="${Math.min(rows, 20)}"` : '';
  return `<figure class="chart${spec.horizontal ? ' horizontal' : ''}"${tall} data-chart="${esc(JSON.stringify({ ...spec, labels }))}">
<canvas role="img" aria-label="${esc(spec.title)}"></canvas><figcaption>${esc(spec.title)}</figcaption></figure>`;
}

/** The scripts a page with charts loads (Chart.js first). */
export const CHART_SCRIPTS = ['/app/assets/chart.umd.min.js', '/app/assets/charts.js'];
