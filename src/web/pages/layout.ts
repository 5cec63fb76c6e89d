import type { Branding } from '../../modules/branding/branding.service.ts';
import type { SessionView } from '../../modules/embed/provisioning.service.ts';
import { esc } from '../html.ts';

/** Who is looking and under whose label: what every page's frame shows. */
export interface Chrome {
  view: SessionView;
  brand: Branding;
  /** The store a store-scoped user is confined to (its display name), or null for every store. */
  storeName: string | null;
  /** The CSP nonce of this response's one inline style (the brand colour). */
  nonce: string;
}

const NAV = [
  ['dashboard', 'Dashboard'],
  ['invoices', 'Invoices'],
  ['inventory', 'Inventory'],
  ['scheduling', 'Scheduling'],
  ['search', 'Search'],
  ['pl', 'P&L'],
  ['reports', 'Reports'],
] as const;

/** White or near-black text, whichever reads better on the brand colour. */
function inkOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! > 0.4 ? '#1f2933' : '#ffffff';
}

function head(title: string, nonce: string, color: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/assets/app.css">
<style nonce="${esc(nonce)}">:root{--brand:${esc(color)};--brand-ink:${inkOn(color)}}</style>
</head>`;
}

/** A signed-in page: the partner's label, the user, the navigation, then the page. */
export function appPage(c: Chrome, p: { title: string; active: string; body: string; scripts?: string[] }): string {
  const { brand, view } = c;
  const logo = brand.logoUrl ? `<img class="logo" src="${esc(brand.logoUrl)}" alt="">` : '';
  const nav = NAV.map(([page, text]) => `<a href="/app/${page}"${page === p.active ? ' aria-current="page"' : ''}>${esc(text)}</a>`).join('');
  const where = [view.tenantName, c.storeName].filter(Boolean).map(esc).join(' · ');
  const scripts = (p.scripts ?? []).map((src) => `<script${src.endsWith('.mjs') ? ' type="module"' : ''} src="${esc(src)}"></script>`).join('');
  return `${head(`${p.title} · ${brand.displayName}`, c.nonce, brand.primaryColor)}
<body>
<header class="top"><div class="brand">${logo}<span class="brand-name">${esc(brand.displayName)}</span></div>
<div class="who"><span class="user">${esc(view.name)}</span><span class="where">${where}</span></div></header>
<nav class="tabs">${nav}</nav>
<main><h1>${esc(p.title)}</h1>
${p.body}
</main>
${scripts}
</body></html>`;
}

/** A page without a session (or before one is known): no label, no navigation. */
export function barePage(title: string, body: string, nonce: string): string {
  return `${head(title, nonce, '#334e68')}
<body><main class="bare"><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

/** A table; `cells` are already-escaped HTML; `rowClasses` marks rows (e.g. overtime) by index. */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, attrs = '', rowClasses: ReadonlyArray<string | null> = []): string {
  const th = headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const body = rows.map((r, i) => `<tr${rowClasses[i] ? ` class="${esc(rowClasses[i])}"` : ''}>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table${attrs}><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Labelled figures in a row of cards; values are already-escaped HTML. */
export function figures(items: ReadonlyArray<readonly [string, string]>): string {
  return `<div class="figures">${items.map(([k, v]) => `<div class="figure"><span class="k">${esc(k)}</span><span class="v">${v}</span></div>`).join('')}</div>`;
}

export const empty = (text: string) => `<p class="empty">${esc(text)}</p>`;
