/** The HTML of the console's overview and markets pages (plain HTML; the overview's charts are uPlot, served by the daemon). */
import type { consoleMarkets } from '../../../services/console/console-markets.service.js';
import type { consoleOverview } from '../../../services/console/console-overview.service.js';
import { esc, page, table } from '../../pages/html.js';

type Overview = Awaited<ReturnType<typeof consoleOverview>>;
type Markets = Awaited<ReturnType<typeof consoleMarkets>>;

const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([k, n]) => `${esc(k)}: ${n}`)
    .join(' · ') || 'none';

/** The charts: one per series group, drawn from /admin/console/samples.json (per-minute samples; rates per second). */
const CHARTS = `<link rel="stylesheet" href="/admin/assets/uplot.css"><script src="/admin/assets/uplot.js"></script>
<div id="charts"></div>
<script>
fetch('/admin/console/samples.json?hours=6', { credentials: 'same-origin' }).then((r) => r.json()).then(({ data }) => {
  const x = data.map((d) => Date.parse(d.minute) / 1000);
  const perSecond = (k) => data.map((d) => d[k] / 60);
  const col = (k) => data.map((d) => d[k]);
  const colors = ['#1565c0', '#c62828', '#2e7d32', '#6a1b9a'];
  const chart = (title, series) => {
    const el = document.createElement('section');
    el.className = 'chart';
    document.getElementById('charts').append(el);
    new uPlot({ title, width: 560, height: 200, series: [{}, ...series.map(([label], i) => ({ label, stroke: colors[i] }))] },
      [x, ...series.map(([, values]) => values)], el);
  };
  chart('Orders placed per second', [['orders/s', perSecond('orders')]]);
  chart('Fills per second', [['matched/s', perSecond('fills_matched')], ['settled/s', perSecond('fills_settled')]]);
  chart('Match → settled latency (ms)', [['p50', col('settle_p50_ms')], ['p99', col('settle_p99_ms')]]);
  chart('HTTP requests per minute', [['requests', col('http_requests')], ['4xx', col('http_4xx')], ['5xx', col('http_5xx')]]);
  chart('Queue depth (waiting, active, delayed)', [['jobs', col('queue_depth')]]);
  document.body.dataset.charts = String(data.length);
});
</script>`;

export function overviewPage(o: Overview): string {
  const c = o.families.C;
  const age = c.oldestUnsettledAgeSeconds;
  const alerts = [
    o.fundsAwaiting.length > 0
      ? `${o.fundsAwaiting.reduce((s, f) => s + f.count, 0)} payout(s) wait for funds (<a href="/admin/money">money</a>)`
      : '',
    age !== null && age > 60 ? `the oldest unsettled fill is ${age} s old (<a href="/admin/orderbook">orderbook</a>)` : '',
    o.failedJobs.length > 0 ? `failed jobs in ${o.failedJobs.map((f) => esc(f.queue)).join(', ')} (<a href="/admin/queues">jobs</a>)` : '',
  ].filter(Boolean);
  const rows = [
    ['A — x402 slug markets', counts(o.families.A.marketsByStatus), `inbound transfers: ${counts(o.families.A.inboundTransfers)}`],
    ['B — AMM and pool markets', counts(o.families.B.marketsByStatus), ''],
    [
      'C — orderbook',
      counts(c.marketsByStatus),
      `orders placed: ${c.ordersLastMinute} last minute, ${c.ordersLastHour} last hour · fills matched: ${c.fillsMatchedLastMinute} / ${c.fillsMatchedLastHour} · settled: ${c.fillsSettledLastMinute} / ${c.fillsSettledLastHour} · fills by status: ${counts(c.fillsByStatus)} · oldest unsettled: ${age === null ? 'none' : `${age} s`}`,
    ],
  ];
  const waiting = o.fundsAwaiting.map((f) => [f.purpose, f.count, `${f.oldestSeconds} s`]);
  const failed = o.failedJobs.map((f) => [f.queue, f.failed]);
  return page(
    'Overview',
    `${alerts.map((a) => `<p class="alert" role="alert">Attention: ${a}.</p>`).join('')}
<h2>Families</h2>${table(['family', 'markets by status', 'activity'], rows, '')}
<h2>Funds awaiting</h2>${table(['purpose', 'payouts', 'oldest'], waiting, 'No payout waits for funds.')}
<h2>Failed jobs</h2>${table(['queue', 'failed'], failed, 'No failed jobs.')}
<h2>Last 6 hours</h2>${CHARTS}`,
  );
}

const bps = (v: number | null) => (v === null ? '—' : String(v));

export function marketsPage(markets: Markets, query: { family?: string; status?: string; search?: string }): string {
  const rows = markets.map((m) => {
    const b = m.orderbook;
    const link = m.family === 'C' ? { html: `<a href="/admin/markets/c/${esc(m.id)}">${esc(m.slug)}</a>` } : m.slug;
    return [
      link,
      m.family,
      m.status,
      m.outcome ?? '',
      b ? b.restingOrders : '',
      b ? `YES ${bps(b.bestBid.yes)}/${bps(b.bestAsk.yes)} · NO ${bps(b.bestBid.no)}/${bps(b.bestAsk.no)}` : '',
      b ? `${b.ownerNode ?? 'none'} (epoch ${b.epoch ?? '—'})` : '',
      b ? counts(b.fillsByStatus) : '',
      b?.oldestUnsettledAgeSeconds == null ? '' : `${b.oldestUnsettledAgeSeconds} s`,
      b ? b.volumeUsdcRaw : '',
    ];
  });
  const option = (value: string, label: string) => `<option value="${value}"${query.family === value ? ' selected' : ''}>${label}</option>`;
  const filter = `<form method="get" action="/admin/markets">family <select name="family">${option('', 'all')}${option('A', 'A')}${option('B', 'B')}${option('C', 'C')}</select>
status <input name="status" value="${esc(query.status)}" size="10"> search <input name="search" value="${esc(query.search)}"> <button>Filter</button></form>`;
  return page(
    'Markets',
    `${filter}${table(
      [
        'market',
        'family',
        'status',
        'outcome',
        'resting',
        'best bid/ask (bps)',
        'matcher',
        'fills',
        'oldest unsettled',
        'volume (USDC raw)',
      ],
      rows,
      'No market matches.',
    )}`,
  );
}
