import { InvalidInput } from '../../platform/errors.ts';

// Shape profiles: a small declarative language that maps an extracted document onto a partner's JSON.
//
//   {
//     "invoice.number": "invoiceNumber",                                  // shorthand for {"path": "invoiceNumber"}
//     "invoice.date":   {"path": "invoiceDate", "date": "MM/DD/YYYY"},
//     "amount_cents":   {"path": "total", "as": "cents"},
//     "tax":            {"path": "tax", "decimals": 2, "as": "string", "default": "0.00"},
//     "source":         {"const": "partner-api"},
//     "lines":          {"path": "lineItems", "each": {"text": "description", "category": "costCategory"}},
//     "skus":           "lineItems[].sku"
//   }
//
// Keys are output fields; a dotted key nests (`invoice.number` → {"invoice": {"number": …}}). A rule is a source
// path (string), or an object with exactly one of `path` / `const` and these options:
//   date      a date path's format, tokens YYYY YY MMMM MMM MM M DD D and any non-letters (default ISO yyyy-mm-dd)
//   decimals  a number path rounded to 0–6 places
//   as        a number path as "number" (default), "string" (fixed decimals, 2 unless `decimals`) or "cents" (integer)
//   each      for `lineItems`: a nested spec applied to every line (its paths are line fields)
//   default   the value when the source value is null (any JSON; not formatted)
// Source paths are listed in SOURCE_FIELDS and LINE_FIELDS; `fieldConfidences.<name>` reads one confidence and
// `lineItems[].<line field>` the list of one line field. Specs are checked when saved, and every problem names
// the output field at fault.

export type FieldKind = 'string' | 'number' | 'date' | 'object' | 'lines' | 'strings';

/** Fields of a line item (paths inside `each`, and after `lineItems[].`). */
export const LINE_FIELDS: Readonly<Record<string, FieldKind>> = {
  description: 'string',
  sku: 'string',
  quantity: 'number',
  unit: 'string',
  unitPrice: 'number',
  total: 'number',
  costCategory: 'string',
};

/** Paths into the extracted document (invoice fields, receipt fields, and both). */
export const SOURCE_FIELDS: Readonly<Record<string, FieldKind>> = {
  documentType: 'string',
  pageCount: 'number',
  vendorName: 'string',
  invoiceNumber: 'string',
  invoiceDate: 'date',
  dueDate: 'date',
  merchantName: 'string',
  receiptDate: 'date',
  subtotal: 'number',
  tax: 'number',
  tip: 'number',
  total: 'number',
  currency: 'string',
  taxCategory: 'string',
  paymentMethod: 'object',
  'paymentMethod.type': 'string',
  'paymentMethod.cardBrand': 'string',
  'paymentMethod.last4': 'string',
  extractionConfidence: 'number',
  fieldConfidences: 'object',
  costCategories: 'strings',
  lineItems: 'lines',
};

const RULE_KEYS = new Set(['path', 'const', 'date', 'decimals', 'as', 'each', 'default']);
const NUMBER_AS = ['number', 'string', 'cents'] as const;
type NumberAs = (typeof NUMBER_AS)[number];
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_RULES = 200;
const MAX_KEY_LENGTH = 100;
const DATE_TOKEN = /YYYY|YY|MMMM|MMM|MM|M|DD|D|[^A-Za-z]+|[A-Za-z]+/g;
const DATE_TOKENS = new Set(['YYYY', 'YY', 'MMMM', 'MMM', 'MM', 'M', 'DD', 'D']);
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Rule {
  output: string[];
  path?: { field: string; kind: FieldKind; /** `lineItems[].x`: the list of one line field. */ many: boolean };
  hasConst: boolean;
  constValue?: unknown;
  date?: string[];
  decimals?: number;
  as?: NumberAs;
  each?: Rule[];
  hasDefault: boolean;
  defaultValue?: unknown;
}

/** A checked spec, ready to apply. */
export interface CompiledProfile {
  rules: Rule[];
}

type Scope = 'document' | 'line';

/** Checks a spec (400 naming the output field at fault) and compiles it. */
export function compileSpec(spec: unknown): CompiledProfile {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) throw InvalidInput.field('spec', 'must be a JSON object of output field → rule');
  const counter = { rules: 0 };
  return { rules: compileLevel(spec as Record<string, unknown>, 'document', 'spec', counter) };
}

function compileLevel(spec: Record<string, unknown>, scope: Scope, label: string, counter: { rules: number }): Rule[] {
  const entries = Object.entries(spec);
  if (entries.length === 0) throw InvalidInput.field(label, 'must map at least one output field');
  const rules: Rule[] = [];
  const taken = new Map<string, 'leaf' | 'branch'>();
  for (const [key, raw] of entries) {
    const field = `${label}.${key}`;
    if (++counter.rules > MAX_RULES) throw InvalidInput.field(label, `has more than ${MAX_RULES} rules`);
    const output = outputPath(key, field);
    claimOutput(taken, output, field, label);
    rules.push(compileRule(raw, output, scope, field, counter));
  }
  return rules;
}

function outputPath(key: string, field: string): string[] {
  const parts = key.split('.');
  for (const part of parts) {
    if (part.trim() === '') throw InvalidInput.field(field, 'is not a valid output field: empty name between dots');
    if (part.length > MAX_KEY_LENGTH) throw InvalidInput.field(field, `is not a valid output field: a name is longer than ${MAX_KEY_LENGTH} characters`);
    if (FORBIDDEN_KEYS.has(part)) throw InvalidInput.field(field, `is not a valid output field: "${part}" is reserved`);
  }
  return parts;
}

/** Two rules may not write the same output, nor one inside the other's value (`a` and `a.b`). */
function claimOutput(taken: Map<string, 'leaf' | 'branch'>, output: string[], field: string, label: string): void {
  for (let i = 1; i < output.length; i++) {
    const prefix = output.slice(0, i).join('.');
    if (taken.get(prefix) === 'leaf') throw InvalidInput.field(field, `conflicts with ${label}.${prefix}, which is not an object`);
    taken.set(prefix, 'branch');
  }
  const whole = output.join('.');
  if (taken.has(whole)) {
    throw InvalidInput.field(field, taken.get(whole) === 'leaf' ? 'is mapped twice' : 'conflicts with the nested fields mapped under it');
  }
  taken.set(whole, 'leaf');
}

function compileRule(raw: unknown, output: string[], scope: Scope, field: string, counter: { rules: number }): Rule {
  if (typeof raw === 'string') raw = { path: raw };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw InvalidInput.field(field, 'must be a source path (string) or a rule object ({path, …} or {const})');
  }
  const r = raw as Record<string, unknown>;
  const unknown = Object.keys(r).filter((k) => !RULE_KEYS.has(k));
  if (unknown.length) throw InvalidInput.field(field, `has an unknown rule option "${unknown[0]}" (options: ${[...RULE_KEYS].join(', ')})`);
  const rule: Rule = { output, hasConst: 'const' in r, hasDefault: 'default' in r };
  if (rule.hasDefault) rule.defaultValue = r.default;
  if (rule.hasConst) {
    if ('path' in r) throw InvalidInput.field(field, 'must have either path or const, not both');
    const extra = ['date', 'decimals', 'as', 'each', 'default'].find((k) => k in r);
    if (extra) throw InvalidInput.field(field, `is a const rule: "${extra}" does not apply`);
    rule.constValue = r.const;
    return rule;
  }
  if (typeof r.path !== 'string' || r.path.trim() === '') throw InvalidInput.field(field, 'must name a source path ("path") or a constant ("const")');
  const path = describePath(r.path.trim(), scope);
  if (!path) throw InvalidInput.field(field, `names an unknown source path "${r.path}" (${knownPaths(scope)})`);
  rule.path = path;
  const kind = path.kind;

  if ('date' in r) {
    if (kind !== 'date') throw InvalidInput.field(field, `has a date format, but ${r.path} is not a date`);
    rule.date = dateFormat(r.date, field);
  }
  if ('decimals' in r) {
    if (kind !== 'number') throw InvalidInput.field(field, `has decimals, but ${r.path} is not a number`);
    const d = r.decimals;
    if (typeof d !== 'number' || !Number.isInteger(d) || d < 0 || d > 6) throw InvalidInput.field(field, 'decimals must be an integer from 0 to 6');
    rule.decimals = d;
  }
  if ('as' in r) {
    if (kind !== 'number') throw InvalidInput.field(field, `has "as", but ${r.path} is not a number`);
    if (!NUMBER_AS.includes(r.as as NumberAs)) throw InvalidInput.field(field, `"as" must be one of ${NUMBER_AS.join(', ')} (got ${JSON.stringify(r.as)})`);
    rule.as = r.as as NumberAs;
    if (rule.as === 'cents' && rule.decimals !== undefined) throw InvalidInput.field(field, 'cents are whole numbers: drop decimals');
  }
  if ('each' in r) {
    if (kind !== 'lines' || path.many) throw InvalidInput.field(field, `has "each", which only applies to lineItems (not ${r.path})`);
    const each = r.each;
    if (each === null || typeof each !== 'object' || Array.isArray(each)) throw InvalidInput.field(field, '"each" must be a spec object (output field → rule)');
    rule.each = compileLevel(each as Record<string, unknown>, 'line', `${field}[]`, counter);
  }
  return rule;
}

function describePath(path: string, scope: Scope): Rule['path'] | undefined {
  if (scope === 'line') return LINE_FIELDS[path] ? { field: path, kind: LINE_FIELDS[path]!, many: false } : undefined;
  if (Object.hasOwn(SOURCE_FIELDS, path)) return { field: path, kind: SOURCE_FIELDS[path]!, many: false };
  if (/^fieldConfidences\.[A-Za-z][A-Za-z0-9_]{0,63}$/.test(path)) return { field: path, kind: 'number', many: false };
  const pluck = /^lineItems\[\]\.(\w+)$/.exec(path);
  if (pluck && Object.hasOwn(LINE_FIELDS, pluck[1]!)) return { field: pluck[1]!, kind: LINE_FIELDS[pluck[1]!]!, many: true };
  return undefined;
}

function knownPaths(scope: Scope): string {
  if (scope === 'line') return `line fields: ${Object.keys(LINE_FIELDS).join(', ')}`;
  return `known: ${Object.keys(SOURCE_FIELDS).join(', ')}, fieldConfidences.<name>, lineItems[].<${Object.keys(LINE_FIELDS).join('|')}>`;
}

function dateFormat(format: unknown, field: string): string[] {
  if (typeof format !== 'string' || format.length === 0 || format.length > 40) {
    throw InvalidInput.field(field, 'date must be a format string such as "MM/DD/YYYY" (at most 40 characters)');
  }
  const tokens = format.match(DATE_TOKEN) ?? [];
  const bad = tokens.find((t) => /^[A-Za-z]/.test(t) && !DATE_TOKENS.has(t));
  if (bad) throw InvalidInput.field(field, `has a bad date format "${format}": "${bad}" is not one of YYYY, YY, MMMM, MMM, MM, M, DD, D`);
  if (!tokens.some((t) => DATE_TOKENS.has(t))) throw InvalidInput.field(field, `has a bad date format "${format}": it has no date part (YYYY, MM, DD, …)`);
  return tokens;
}

/** The document in the profile's shape. */
export function applyProfile(profile: CompiledProfile, document: Record<string, unknown>): Record<string, unknown> {
  return applyRules(profile.rules, document);
}

function applyRules(rules: readonly Rule[], source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const rule of rules) setPath(out, rule.output, valueOf(rule, source));
  return out;
}

function valueOf(rule: Rule, source: Record<string, unknown>): unknown {
  if (rule.hasConst) return structuredClone(rule.constValue);
  const path = rule.path!;
  let value: unknown;
  if (path.many) {
    const lines = source.lineItems;
    value = Array.isArray(lines) ? lines.map((l) => format(rule, (l as Record<string, unknown>)?.[path.field] ?? null)) : null;
  } else if (rule.each) {
    const lines = source.lineItems;
    value = Array.isArray(lines) ? lines.map((l) => applyRules(rule.each!, (l ?? {}) as Record<string, unknown>)) : null;
  } else {
    const raw = getPath(source, path.field);
    value = Array.isArray(raw) ? raw.map((v) => format(rule, v)) : format(rule, raw);
  }
  if (value === null || value === undefined) return rule.hasDefault ? structuredClone(rule.defaultValue) : null;
  return value;
}

function getPath(source: Record<string, unknown>, path: string): unknown {
  let value: unknown = source;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return null;
    value = Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : null;
  }
  return value === undefined ? null : structuredClone(value);
}

function format(rule: Rule, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (rule.date && typeof value === 'string') return formatDate(value, rule.date);
  if (typeof value === 'number' && (rule.as || rule.decimals !== undefined)) return formatNumber(value, rule.decimals, rule.as ?? 'number');
  return value;
}

/** 1.005 × 100 is 100.49999…: round what the number means, not its binary approximation. */
const roundTo = (v: number, places: number) => Math.round(Number((v * 10 ** places).toFixed(6))) / 10 ** places;

export function formatNumber(value: number, decimals: number | undefined, as: NumberAs): number | string {
  if (as === 'cents') return Math.round(Number((value * 100).toFixed(6)));
  if (as === 'string') return roundTo(value, decimals ?? 2).toFixed(decimals ?? 2);
  return decimals === undefined ? value : roundTo(value, decimals);
}

/** An ISO calendar day in the given format; anything that is not one is left as it is. */
export function formatDate(iso: string, tokens: readonly string[]): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const [year, month, day] = [m[1]!, Number(m[2]), Number(m[3])];
  const pad = (n: number) => String(n).padStart(2, '0');
  const parts: Record<string, string> = {
    YYYY: year,
    YY: year.slice(2),
    MMMM: MONTHS[month - 1] ?? '',
    MMM: (MONTHS[month - 1] ?? '').slice(0, 3),
    MM: pad(month),
    M: String(month),
    DD: pad(day),
    D: String(day),
  };
  return tokens.map((t) => parts[t] ?? t).join('');
}

function setPath(out: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = out;
  for (const part of path.slice(0, -1)) {
    const next = node[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}
