/** The HTML of an orderbook market's console page and of its resolve confirmation. */
import type { marketConsole } from '../../../services/family-c/market-console.service.js';
import { esc, page, table } from '../../pages/html.js';

type View = Awaited<ReturnType<typeof marketConsole>>;

/** A control; `role` is the least operator role that may use it (the console drops it for others: console-decoration.ts). */
const form = (action: string, label: string, fields = '', method = 'post', role: 'operator' | 'admin' = 'operator') =>
  `<form method="${method}" action="${esc(action)}" style="display:inline" data-role="${role}">${fields}<button>${esc(label)}</button></form>`;

/** Cumulative depth per outcome, drawn with uPlot (bids to the left of the spread, asks to the right). */
function depthChart(book: View['book']): string {
  if (!book) return '<p class="none">The matcher has not published this book yet.</p>';
  const side = (levels: Array<{ price: number; size: string }>) => {
    let total = 0;
    return levels.map((l) => [l.price, (total += Number(l.size) / 1e6)]);
  };
  const data = {
    yes: { bids: side(book.yes.bids), asks: side(book.yes.asks) },
    no: { bids: side(book.no.bids), asks: side(book.no.asks) },
  };
  return `<link rel="stylesheet" href="/admin/assets/uplot.css"><script src="/admin/assets/uplot.js"></script><div id="depth"></div>
<script>
const depth = ${JSON.stringify(data).replace(/</g, '\\u003c')};
for (const outcome of ['yes', 'no']) {
  const points = [...depth[outcome].bids.map(([p, q]) => [p, q, null]), ...depth[outcome].asks.map(([p, q]) => [p, null, q])].sort((a, b) => a[0] - b[0]);
  const el = document.createElement('section'); el.className = 'chart'; document.getElementById('depth').append(el);
  new uPlot({ title: 'Depth ' + outcome.toUpperCase() + ' (tokens by price, bps)', width: 520, height: 200, scales: { x: { time: false } },
    series: [{}, { label: 'bids', stroke: '#2e7d32' }, { label: 'asks', stroke: '#c62828' }] },
    [points.map((p) => p[0]), points.map((p) => p[1]), points.map((p) => p[2])], el);
}
</script>`;
}

export function marketConsolePage(v: View, notice?: string): string {
  const m = v.market;
  const base = `/admin/markets/c/${m.id}`;
  const controls = [
    m.status === 'active' ? form(`${base}/pause`, 'Pause') : '',
    m.status === 'paused' ? form(`${base}/resume`, 'Resume') : '',
    m.status !== 'resolved'
      ? `${form(`${base}/resolve`, `Resolve YES…`, '<input type="hidden" name="outcome" value="yes">', 'get', 'admin')} ${form(`${base}/resolve`, `Resolve NO…`, '<input type="hidden" name="outcome" value="no">', 'get', 'admin')}`
      : '',
    m.status !== 'resolved' ? form(`${base}/cancel-all`, 'Cancel all resting orders') : '',
  ].join(' ');
  const levels = (outcome: 'yes' | 'no') =>
    v.book
      ? table(
          ['bids (price · size)', 'asks (price · size)'],
          Array.from({ length: Math.min(10, Math.max(v.book[outcome].bids.length, v.book[outcome].asks.length)) }, (_, i) => [
            v.book![outcome].bids[i] ? `${v.book![outcome].bids[i]!.price} · ${v.book![outcome].bids[i]!.size}` : '',
            v.book![outcome].asks[i] ? `${v.book![outcome].asks[i]!.price} · ${v.book![outcome].asks[i]!.size}` : '',
          ]),
          'No resting orders.',
        )
      : '';
  const trades = v.trades.map((t) => [
    t.matchedAt,
    t.fillType,
    `${t.outcome.toUpperCase()} ${t.quantity} @ ${t.priceBps}`,
    t.status,
    t.settleTx ?? '',
  ]);
  const batches = v.batches.map((b) => [b.id, b.fills, b.status, b.signature ?? '', b.attempts, `${b.ageSeconds} s`, b.lastError ?? '']);
  const stuck = v.stuck.map((f) => [
    f.id,
    f.status,
    `${f.outcome.toUpperCase()} ${f.quantity} @ ${f.priceBps}`,
    f.retryCount,
    f.lastError ?? '',
    `${f.ageSeconds} s`,
    f.status.startsWith('failed') ? { html: form(`/admin/orderbook/fills/${f.id}/retry`, 'Re-drive') } : '',
  ]);
  const counts =
    Object.entries(v.fillsByStatus)
      .map(([s, n]) => `${esc(s)}: ${n}`)
      .join(' · ') || 'no fills yet';
  return page(
    `Market ${m.slug}`,
    `${notice ? `<p role="status" class="notice">${esc(notice)}</p>` : ''}
<p>${esc(m.name)} — status <strong id="market-status">${esc(m.status)}</strong>${m.outcome ? `, resolved ${esc(m.outcome)}` : ''} · id ${esc(m.id)}</p>
<p>${controls}</p>
<h2>Book</h2>${depthChart(v.book)}<h3>YES</h3>${levels('yes')}<h3>NO</h3>${levels('no')}
<h2>Settlement</h2><p>Fills by status: ${counts}</p>
<h3>Batches in flight</h3>${table(['batch', 'fills', 'transaction', 'signature', 'attempts', 'age', 'last error'], batches, 'No batch in flight.')}
<h3>Stuck (not settled after 60 s)</h3>${table(['fill', 'status', 'fill', 'retries', 'last error', 'age', ''], stuck, 'Nothing stuck.')}
<h2>Recent trades</h2>${table(['matched', 'type', 'fill', 'status', 'settlement'], trades, 'No trades yet.')}`,
    base,
  );
}

export function confirmResolvePage(m: View['market'], outcome: 'yes' | 'no'): string {
  const fields = `<input type="hidden" name="outcome" value="${outcome}"><input type="hidden" name="confirm" value="yes">`;
  return page(
    'Confirm resolution',
    `<p class="alert">Resolve <strong>${esc(m.slug)}</strong> (${esc(m.name)}) as <strong>${outcome.toUpperCase()}</strong>? Its resting orders are cancelled and redemption opens; this cannot be undone.</p>
<p>${form(`/admin/markets/c/${m.id}/resolve`, `Yes, resolve ${outcome.toUpperCase()}`, fields, 'post', 'admin')} <a href="/admin/markets/c/${esc(m.id)}">Cancel</a></p>`,
  );
}
