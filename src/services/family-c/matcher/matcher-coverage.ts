/**
 * Whether every active orderbook market has a live matcher, for /ready. Matchers write two
 * things to Redis each round (market-leases.ts): when the newest round's registration runs out,
 * and, per market they hold, when its lease runs out. A market counts as
 * uncovered only once nobody has renewed it for longer than a takeover takes — two lease
 * periods: one for the dead holder's lease to expire, one for the next matcher's round to take it
 * — so a normal handover (release, take within a quarter lease) never fails the check and never
 * drops an API node from its load balancer. A deployment without any matcher fails at once.
 */
import type { Redis } from 'ioredis';
import { coveredKey, lastRoundKey } from './market-leases.js';

export interface CoverageDeps {
  redis: Redis;
  prefix: string;
  leaseMs: number;
  activeMarkets(): Promise<string[]>;
  now?(): number;
}

/** Throws the reason the orderbook is not served; returns a short description when it is. */
export function matcherCoverage(deps: CoverageDeps): () => Promise<string> {
  // A market no matcher ever covered is timed from when this probe first saw it uncovered.
  const firstSeenBare = new Map<string, number>();
  const now = deps.now ?? Date.now;
  return async () => {
    const at = now();
    const takeoverMs = 2 * deps.leaseMs;
    const newest = await deps.redis.get(lastRoundKey(deps.prefix));
    if (newest === null) throw new Error('no matcher node has ever run: start a process with ROLES including matcher');
    // The key holds when the newest round's registration runs out, one lease after that round.
    const lastRound = Number(newest) - deps.leaseMs;
    if (at - lastRound > takeoverMs) throw new Error(`no live matcher node for ${seconds(at - lastRound)} s`);

    const markets = await deps.activeMarkets();
    if (markets.length === 0) return 'no active orderbook market';
    const covered = await deps.redis.hmget(coveredKey(deps.prefix), ...markets);
    const bare: string[] = [];
    markets.forEach((marketId, i) => {
      const until = covered[i] === null ? undefined : Number(covered[i]);
      if (until !== undefined && at - (until - deps.leaseMs) <= takeoverMs) {
        firstSeenBare.delete(marketId);
        return;
      }
      const since = until !== undefined ? until - deps.leaseMs : (firstSeenBare.get(marketId) ?? at);
      if (until === undefined) firstSeenBare.set(marketId, since);
      if (at - since > takeoverMs) bare.push(`${marketId} (${seconds(at - since)} s)`);
    });
    if (bare.length > 0) {
      const shown = bare.slice(0, 5).join(', ') + (bare.length > 5 ? ` and ${bare.length - 5} more` : '');
      throw new Error(`${bare.length} active market(s) without a live matcher for longer than a takeover: ${shown}`);
    }
    return `${markets.length} active market(s) covered`;
  };
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
