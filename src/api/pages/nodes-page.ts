/**
 * /admin/nodes: the deployment at a glance. Above the fold what needs an operator — markets no
 * live matcher holds, nodes that stopped beating, queues with failed or piling jobs — then every
 * node, the markets each matcher owns (epoch, lease expiry) and every queue's depth, each queue
 * linked to its job dashboard page.
 */
import type { MarketOwnership, NodeOverview, NodesOverview } from '../../services/nodes-overview.service.js';
import { esc, page, table } from './html.js';

/** A queue with more waiting jobs than this is called out at the top. */
const BACKLOG_ALERT = 1_000;

const seconds = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);
const lag = (n: NodeOverview) => (n.loopLagP99Ms === null ? '—' : `${n.loopLagP99Ms} ms p99 · ${n.loopLagMeanMs} ms mean`);
const node = (id: string | null) => (id === null ? '—' : id);

function alerts(o: NodesOverview): string {
  const lines = o.unavailable.map((u) => `Could not read the ${u.part} this time: ${esc(u.reason)}.`);
  const unowned = o.markets.filter((m) => m.unowned);
  if (unowned.length > 0)
    lines.push(
      `${unowned.length} market(s) without a live matcher (${unowned
        .slice(0, 5)
        .map((m) => esc(m.slug))
        .join(', ')}${unowned.length > 5 ? ', …' : ''}): their orders wait until a matcher takes them.`,
    );
  const gone = o.nodes.filter((n) => n.gone && n.markets.length > 0);
  for (const n of gone)
    lines.push(`Node ${esc(n.nodeId)} stopped beating ${n.secondsSinceBeat} s ago but still holds ${n.markets.length} lease(s).`);
  for (const q of o.queues) {
    if (q.failed > 0) lines.push(`Queue ${esc(q.queue)} has ${q.failed} failed job(s).`);
    if (q.waiting > BACKLOG_ALERT) lines.push(`Queue ${esc(q.queue)} has ${q.waiting} waiting jobs.`);
  }
  return lines.map((line) => `<p class="alert" role="alert">${line}</p>`).join('\n');
}

function marketRow(m: MarketOwnership): unknown[] {
  return [m.slug, m.status, node(m.leaseHolder), seconds(m.leaseExpiresInMs), m.epoch, node(m.epochNode), m.unowned ? 'NO MATCHER' : 'ok'];
}

export function nodesPage(o: NodesOverview): string {
  const live = o.nodes.filter((n) => !n.gone).length;
  const nodes = table(
    ['node', 'state', 'roles', 'version', 'started', 'last beat', 'event-loop delay', 'markets', 'host · pid'],
    o.nodes.map((n) => [
      n.nodeId,
      n.gone ? 'GONE' : 'live',
      n.roles.join(', '),
      n.version,
      n.startedAt,
      `${n.secondsSinceBeat} s ago`,
      lag(n),
      n.markets.length,
      `${n.hostname} · ${n.pid}`,
    ]),
    'No node has beaten yet.',
  );
  const matchers = o.nodes
    .filter((n) => n.markets.length > 0)
    .map(
      (n) =>
        `<h3>${esc(n.nodeId)}${n.gone ? ' (gone)' : ''}</h3>${table(
          ['market', 'status', 'lease holder', 'lease expires in', 'epoch', 'epoch taken by', ''],
          n.markets.map(marketRow),
          '',
        )}`,
    )
    .join('\n');
  const unowned = o.markets.filter((m) => m.unowned);
  const queues = table(
    ['queue', 'matcher node', 'waiting', 'active', 'delayed', 'failed', 'completed'],
    o.queues.map((q) => [
      { html: `<a href="/admin/queues/queue/${encodeURIComponent(q.queue)}">${esc(q.queue)}</a>` },
      node(q.node),
      q.waiting,
      q.active,
      q.delayed,
      q.failed,
      q.completed,
    ]),
    'No queues.',
  );
  return page(
    'Nodes',
    `${alerts(o)}
<p>${live} live node(s) of ${o.nodes.length} on record. A node beats every ${o.beatIntervalMs / 1000} s and counts as gone after ${
      o.goneAfterMs / 1000
    } s without a beat. Read at ${esc(o.generatedAt)}.</p>
<h2>Nodes</h2>${nodes}
<h2>Matchers: the markets each one owns</h2>${matchers || '<p class="none">No matcher holds a market.</p>'}
<h3>Markets without a live matcher</h3>${table(
      ['market', 'status', 'lease holder', 'lease expires in', 'epoch', 'epoch taken by', ''],
      unowned.map(marketRow),
      'Every market has a live matcher.',
    )}
<h2>Queues</h2>${queues}`,
  );
}
