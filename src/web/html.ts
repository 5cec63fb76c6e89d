/** Escapes text for HTML content and attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A plain page for people (sign-in outcomes, onboarding); no external assets. */
export function simplePage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1f2933}
h1{font-size:1.5rem}label{display:block;margin:.75rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{font:inherit;margin-top:1rem;padding:.5rem 1rem}.note{color:#52606d}</style></head>
<body>${body}</body></html>`;
}
