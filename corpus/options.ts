// Command-line options shared by `npm run corpus` and `npm run eval -- --corpus`.

import { LABEL_MODES, type LabelMode } from './extras.ts';
import type { CorpusOptions } from './generate.ts';
import { LAYOUTS, type LayoutFamily } from './layouts.ts';
import { LANGUAGES, type Language } from './locales/index.ts';

export const DEFAULT_SEED = 1;
export const DEFAULT_COUNT = 260;

/** The value after `--name`, if given. */
export function option(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`);
  return v;
}

function list<T extends string>(argv: readonly string[], name: string, known: readonly T[]): T[] | undefined {
  const v = option(argv, name);
  if (v === undefined) return undefined;
  const items = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((s) => !known.includes(s as T));
  if (bad.length) throw new Error(`unknown ${name}: ${bad.join(', ')} (known: ${known.join(', ')})`);
  return items as T[];
}

function int(argv: readonly string[], name: string, fallback: number): number {
  const v = option(argv, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number (got ${v})`);
  return n;
}

export function corpusOptions(argv: readonly string[]): CorpusOptions {
  const languages = list<Language>(argv, 'languages', LANGUAGES);
  const layouts = list<LayoutFamily>(argv, 'layouts', LAYOUTS);
  const [labels, ...more] = list<LabelMode>(argv, 'labels', LABEL_MODES) ?? [];
  if (more.length) throw new Error('--labels takes one mode');
  return {
    ...(labels ? { labels } : {}),
    seed: int(argv, 'seed', DEFAULT_SEED),
    count: int(argv, 'count', DEFAULT_COUNT),
    ...(languages ? { languages } : {}),
    ...(layouts ? { layouts } : {}),
  };
}

/** The `--languages` / `--layouts` filters alone (for a folder whose manifest carries the tags). */
export function tagFilters(argv: readonly string[]): { languages?: Language[]; layouts?: LayoutFamily[] } {
  const languages = list<Language>(argv, 'languages', LANGUAGES);
  const layouts = list<LayoutFamily>(argv, 'layouts', LAYOUTS);
  return { ...(languages ? { languages } : {}), ...(layouts ? { layouts } : {}) };
}
