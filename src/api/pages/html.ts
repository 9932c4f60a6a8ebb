/** Small helpers of the operators' HTML pages: escaping, tables, the page shell. Plain HTML, no scripts. */
export const esc = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Cells are escaped, except those given as `{ html }` (links, forms). */
export function table(headers: string[], rows: unknown[][], empty: string): string {
  if (rows.length === 0) return `<p class="none">${esc(empty)}</p>`;
  const cell = (c: unknown) => (typeof c === 'object' && c !== null && 'html' in c ? String((c as { html: string }).html) : esc(c));
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${cell(c)}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/**
 * A page refreshed every 15 s, with the operators' links. A page answering a form's post names
 * the URL to refresh to (`refreshUrl`), so that the refresh reads the page instead of posting again.
 */
export function page(title: string, body: string, refreshUrl?: string): string {
  const refresh = refreshUrl ? `15;url=${esc(refreshUrl)}` : '15';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${refresh}"><title>PMX ${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:90rem}table{border-collapse:collapse;width:100%;font-size:.85rem}
td,th{border:1px solid #ccc;padding:.3rem;text-align:left;word-break:break-all}.chart{display:inline-block;margin:.5rem}.alert{color:#fff;background:#b00020;padding:.6rem}.none{color:#666}.bad{color:#b00020;font-weight:bold}.good{color:#2e7d32}</style></head>
<body><!--operator--><h1>${esc(title)}</h1><nav><p><a href="/admin">Overview</a> · <a href="/admin/markets">Markets</a> · <a href="/admin/orderbook">Orderbook</a> · <a href="/admin/money">Platform money</a> · <a href="/admin/nodes">Nodes</a> · <a href="/admin/queues">Job dashboard</a> · <a href="/admin/audit">Audit log</a></p></nav>
${body}
</body></html>`;
}
