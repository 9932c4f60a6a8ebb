/**
 * What the operators' Nodes page (and GET /v2/admin/nodes) shows: every daemon node with its
 * beat and event-loop delay, the orderbook markets each matcher owns (lease in Redis, fencing
 * epoch in the database), the markets no live matcher holds, and every queue's depth (the
 * matchers' queues included). Read from the database, Redis and the queues at request time, so
 * any API node shows the whole deployment. A part that cannot be read (Redis slow or away) is
 * named in `unavailable` and the rest is still shown: the page is where an operator looks when
 * something is wrong.
 */
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { listMatcherEpochs } from '../../db/repositories/clob-matcher-epochs.repository.js';
import type { Database } from '../../db/schema.js';
import { goneAfterMs, nodesForOperators, type NodeView } from './daemon-nodes.service.js';
import { readLeases } from './family-c/matcher/market-leases.js';

export interface QueueDepthView {
  queue: string;
  node: string | null;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export interface MarketOwnership {
  marketId: string;
  slug: string;
  status: string;
  /** The fencing epoch (clob_markets.matcher_epoch) and the node that took it. */
  epoch: string;
  epochNode: string | null;
  /** The node holding the market's lease now; null when none does. */
  leaseHolder: string | null;
  leaseExpiresInMs: number | null;
  /** No lease, or its holder is a node that stopped beating: orders wait for a takeover. */
  unowned: boolean;
}

export interface NodeOverview extends Omit<NodeView, 'loopLagP99Us' | 'loopLagMeanUs'> {
  loopLagP99Ms: number | null;
  loopLagMeanMs: number | null;
  /** Markets whose lease this node holds. */
  markets: MarketOwnership[];
}

export interface NodesOverview {
  generatedAt: string;
  /** Parts that could not be read this time, with why (their lists are then empty or unknown). */
  unavailable: Array<{ part: 'queues' | 'leases'; reason: string }>;
  beatIntervalMs: number;
  goneAfterMs: number;
  nodes: NodeOverview[];
  markets: MarketOwnership[];
  queues: QueueDepthView[];
}

export interface NodesOverviewDeps {
  db: Kysely<Database>;
  redis: Redis;
  queuePrefix: string;
  beatIntervalMs: number;
  queueDepths(): Promise<QueueDepthView[]>;
}

const ms = (us: number | null) => (us === null ? null : Math.round(us / 100) / 10);

/** The part's value, or undefined with the reason noted in `unavailable`. */
async function part<T>(
  name: 'queues' | 'leases',
  read: () => Promise<T>,
  unavailable: NodesOverview['unavailable'],
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    unavailable.push({ part: name, reason: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

export async function nodesOverview(deps: NodesOverviewDeps): Promise<NodesOverview> {
  const unavailable: NodesOverview['unavailable'] = [];
  const [nodes, epochs, queues] = await Promise.all([
    nodesForOperators(deps.db, deps.beatIntervalMs),
    listMatcherEpochs(deps.db),
    part('queues', () => deps.queueDepths(), unavailable),
  ]);
  const marketIds = epochs.map((e) => e.marketId);
  const leases = await part('leases', () => readLeases(deps.redis, deps.queuePrefix, marketIds), unavailable);
  const live = new Set(nodes.filter((n) => !n.gone).map((n) => n.nodeId));
  const markets: MarketOwnership[] = epochs.map((e) => {
    const lease = leases?.get(e.marketId) ?? { holder: null, expiresInMs: null };
    return {
      marketId: e.marketId,
      slug: e.slug,
      status: e.status,
      epoch: e.epoch.toString(),
      epochNode: e.node,
      leaseHolder: lease.holder,
      leaseExpiresInMs: lease.expiresInMs,
      // Unknown leases say nothing about ownership: no alarm for every market at once.
      unowned: leases !== undefined && (lease.holder === null || !live.has(lease.holder)),
    };
  });
  return {
    generatedAt: new Date().toISOString(),
    unavailable,
    beatIntervalMs: deps.beatIntervalMs,
    goneAfterMs: goneAfterMs(deps.beatIntervalMs),
    nodes: nodes.map(({ loopLagP99Us, loopLagMeanUs, ...node }) => ({
      ...node,
      loopLagP99Ms: ms(loopLagP99Us),
      loopLagMeanMs: ms(loopLagMeanUs),
      markets: markets.filter((m) => m.leaseHolder === node.nodeId),
    })),
    markets,
    queues: queues ?? [],
  };
}
