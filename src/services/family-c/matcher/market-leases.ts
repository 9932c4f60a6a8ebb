/**
 * Which matcher owns which market: a lease per market in Redis (`SET NX PX`, renewed by its
 * holder), spread over the live matcher nodes by rendezvous hashing, so two matchers on shared
 * Redis and database split the markets and a dead matcher's markets move to the others within
 * one lease period. The lease decides who may try; the database epoch (matcher.ts) decides who
 * may write, so a holder that stalls past its lease is fenced out, never split-brained.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { integerReply, redisScript } from '../../../infra/redis-scripts.js';

/** KEYS: lease. ARGV: node, ttl ms. Renews only our own lease. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
/** KEYS: lease. ARGV: node. Releases only our own lease (also: a dead predecessor's, by its exact value). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const renewLease = redisScript('lease-renew', RENEW, integerReply);
const releaseLease = redisScript('lease-release', RELEASE, integerReply);

/** The live matcher nodes: a sorted set, score = when the node's registration runs out. */
export const registryKey = (prefix: string) => `${prefix}:clob:matchers`;
/** When the newest matcher round's registration runs out (outlives a clean stop; /ready reads it). */
export const lastRoundKey = (prefix: string) => `${prefix}:clob:matchers:last-round`;
/** Per market: when the lease its holder last renewed runs out (/ready: matcher-coverage.ts). */
export const coveredKey = (prefix: string) => `${prefix}:clob:covered`;

export interface LeaseOptions {
  redis: Redis;
  prefix: string;
  node: string;
  log: Logger;
  ttlMs?: number;
  tickMs?: number;
  /** The markets that need a matcher (active or paused or resolved: resolved books still cancel). */
  markets(): Promise<string[]>;
  /**
   * Takes over markets whose leases this round took (in chunks of ACQUIRE_CHUNK): answers those
   * that could not be taken, with why; their leases are released.
   */
  acquired(marketIds: string[]): Promise<Map<string, Error>>;
  lost(marketId: string): void;
  /**
   * Whether `holder` is certainly dead (e.g. a crashed predecessor of this process on this host):
   * its leases are taken at once instead of after their expiry.
   */
  isDead?(holder: string): boolean;
  /** Counts lease moves (metrics): a lease taken (nobody held it, or a dead holder did) or one this node lost. */
  counted?(event: LeaseEvent): void;
}

/**
 * Markets taken over together (one epoch commit, matcher.ts ownMany): a restart reclaiming
 * thousands of markets commits once per chunk rather than once per market.
 */
const ACQUIRE_CHUNK = 100;

export type LeaseEvent = 'taken_free' | 'taken_from_dead' | 'lost';

/**
 * Instance ids are `host:port:roles:pid:random` (src/daemon.ts). A holder on this host whose pid
 * no longer runs is dead: a daemon restarted after `kill -9` need not wait a lease period.
 */
export function deadOnThisHost(host: string): (holder: string) => boolean {
  return (holder) => {
    const parts = holder.split(':');
    if (parts.length < 5 || parts[0] !== host) return false;
    const pid = Number(parts[parts.length - 2]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  };
}

export function rendezvousOwner(nodes: string[], marketId: string): string | undefined {
  let best: string | undefined;
  let bestScore = '';
  for (const node of nodes) {
    const score = createHash('sha256').update(`${node}|${marketId}`).digest('hex');
    if (score > bestScore) {
      bestScore = score;
      best = node;
    }
  }
  return best;
}

/** The Redis key of a market's lease; its value is the holder's instance id. */
export function marketLeaseKey(prefix: string, marketId: string): string {
  return `${prefix}:clob:lease:${marketId}`;
}

export interface LeaseState {
  /** The instance id holding the lease, or null when nobody does (no live matcher, or a takeover under way). */
  holder: string | null;
  /** Milliseconds until the lease expires unless renewed (null without a holder). */
  expiresInMs: number | null;
}

/** Who holds each market's lease and for how long yet (one round trip for all: the operators' Nodes page). */
export async function readLeases(redis: Redis, prefix: string, marketIds: string[]): Promise<Map<string, LeaseState>> {
  const leases = new Map<string, LeaseState>();
  if (marketIds.length === 0) return leases;
  const pipeline = redis.pipeline();
  for (const marketId of marketIds) pipeline.get(marketLeaseKey(prefix, marketId)).pttl(marketLeaseKey(prefix, marketId));
  const replies = (await pipeline.exec()) ?? [];
  marketIds.forEach((marketId, i) => {
    const [getError, holder] = replies[2 * i] ?? [];
    const [ttlError, ttl] = replies[2 * i + 1] ?? [];
    if (getError || ttlError) throw getError ?? ttlError;
    const held = typeof holder === 'string';
    leases.set(marketId, { holder: held ? holder : null, expiresInMs: held && typeof ttl === 'number' && ttl >= 0 ? ttl : null });
  });
  return leases;
}

export class MarketLeases {
  readonly held = new Set<string>();
  private lastRoundAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  /** A round was asked for while one ran: that one may have read the market list too early. */
  private again = false;
  private readonly ttl: number;

  constructor(private readonly o: LeaseOptions) {
    this.ttl = o.ttlMs ?? 10_000;
  }

  leaseKey(marketId: string): string {
    return marketLeaseKey(this.o.prefix, marketId);
  }

  private get registry(): string {
    return registryKey(this.o.prefix);
  }

  /** The node holding a market's lease, if any (API nodes route orders with it). */
  async holder(marketId: string): Promise<string | null> {
    return this.o.redis.get(this.leaseKey(marketId));
  }

  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.o.tickMs ?? Math.floor(this.ttl / 4));
    this.timer.unref();
  }

  /** One round: heartbeat, renew what we hold, hand over what belongs elsewhere, take what is ours. */
  tick(): Promise<void> {
    this.ticking ??= this.round()
      .catch((err) => this.o.log.warn({ err }, 'matcher lease round failed'))
      .finally(() => {
        this.ticking = undefined;
        if (this.again && this.timer) {
          this.again = false;
          void this.tick();
        }
      });
    return this.ticking;
  }

  /**
   * A round now rather than at the next tick: a market has no matcher yet (just created, say) and
   * an order waits for it. A round already under way is followed by one more, since it may have
   * listed the markets before this one existed. Ignored before start() and after stop().
   */
  soon(): void {
    if (!this.timer) return;
    if (this.ticking) this.again = true;
    else void this.tick();
  }

  private async round(): Promise<void> {
    const now = Date.now();
    const r = this.o.redis;
    await r.zadd(this.registry, now + this.ttl, this.o.node);
    await r.zremrangebyscore(this.registry, '-inf', now);
    const nodes = [];
    for (const node of await r.zrangebyscore(this.registry, now, '+inf')) {
      if (node !== this.o.node && this.o.isDead?.(node)) await r.zrem(this.registry, node);
      else nodes.push(node);
    }
    for (const marketId of [...this.held]) {
      const renewed = await renewLease(r, [this.leaseKey(marketId)], [this.o.node, this.ttl]);
      if (renewed !== 1) this.drop(marketId, 'lease lost');
    }
    const taken: string[] = [];
    for (const marketId of await this.o.markets()) {
      const mine = rendezvousOwner(nodes, marketId) === this.o.node;
      if (this.held.has(marketId)) {
        if (!mine) await this.release(marketId, 'handed to its rendezvous owner');
        continue;
      }
      // Not ours by hash: take it only when nobody has held it for a whole lease (its owner is gone).
      if (!mine && nodes.length > 1) continue;
      if (!(await this.take(marketId))) continue;
      this.held.add(marketId);
      taken.push(marketId);
    }
    for (let i = 0; i < taken.length; i += ACQUIRE_CHUNK) await this.acquire(taken.slice(i, i + ACQUIRE_CHUNK));
    await this.markCovered(now + this.ttl);
    this.lastRoundAt = now;
  }

  private async acquire(marketIds: string[]): Promise<void> {
    let failed: Map<string, Error>;
    try {
      failed = await this.o.acquired(marketIds);
    } catch (err) {
      failed = new Map(marketIds.map((marketId) => [marketId, err as Error]));
    }
    for (const [marketId, err] of failed) {
      this.o.log.error({ err, market: marketId }, 'could not take over a market; releasing it');
      await this.release(marketId, 'takeover failed');
    }
  }

  /** For /ready on a matcher node: throws when no round completed within `maxAgeMs`. */
  lastRoundAge(maxAgeMs: number): string {
    if (this.lastRoundAt === undefined) throw new Error('no lease round completed yet');
    const age = Date.now() - this.lastRoundAt;
    if (age > maxAgeMs) throw new Error(`last lease round ${Math.round(age / 1000)} s ago (Redis or the database failing?)`);
    return `holds ${this.held.size} market(s); last lease round ${age} ms ago`;
  }

  /** What /ready reads: this round happened, and which markets it holds until when. */
  private async markCovered(until: number): Promise<void> {
    const covered = [...this.held].flatMap((marketId) => [marketId, String(until)]);
    const multi = this.o.redis.multi().set(lastRoundKey(this.o.prefix), String(until));
    if (covered.length > 0) multi.hset(coveredKey(this.o.prefix), ...covered);
    await multi.exec();
  }

  private async take(marketId: string): Promise<boolean> {
    const r = this.o.redis;
    if ((await r.set(this.leaseKey(marketId), this.o.node, 'PX', this.ttl, 'NX')) === 'OK') {
      this.o.counted?.('taken_free');
      return true;
    }
    const holder = await r.get(this.leaseKey(marketId));
    if (!holder || !this.o.isDead?.(holder)) return false;
    await releaseLease(r, [this.leaseKey(marketId)], [holder]);
    await r.zrem(this.registry, holder);
    this.o.log.info({ market: marketId, holder }, 'taking over the lease of a dead matcher on this host');
    const taken = (await r.set(this.leaseKey(marketId), this.o.node, 'PX', this.ttl, 'NX')) === 'OK';
    if (taken) this.o.counted?.('taken_from_dead');
    return taken;
  }

  private drop(marketId: string, why: string): void {
    this.o.counted?.('lost');
    this.held.delete(marketId);
    this.o.lost(marketId);
    this.o.log.warn({ market: marketId, why }, 'matcher lease dropped');
  }

  private async release(marketId: string, why: string): Promise<void> {
    this.held.delete(marketId);
    this.o.lost(marketId);
    await releaseLease(this.o.redis, [this.leaseKey(marketId)], [this.o.node]);
    this.o.log.info({ market: marketId, why }, 'matcher lease released');
  }

  /** Clean shutdown: release every lease so the other matchers take over at once. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
    for (const marketId of [...this.held]) await this.release(marketId, 'shutdown');
    await this.o.redis.zrem(this.registry, this.o.node);
  }
}
