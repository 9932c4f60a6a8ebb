/**
 * The rate-limit store (the interface @fastify/rate-limit defined; rate-limit.hook.ts calls it)
 * that keeps the cross-process limit without a Redis round trip per request. Each process
 * reserves tokens from the shared Redis counter in batches (one INCRBY of the batch size,
 * atomically with the window's expiry) and spends them locally; only when its
 * local tokens run out does a request wait for Redis, and a busy key's next batch is fetched in
 * the background before they do.
 *
 * Why reservations rather than counting locally and reporting later: a reservation is taken
 * from the shared counter before any request spends it, so all processes together never admit
 * more than the limit in a window. The price is on the other side: tokens one process holds are
 * unavailable to the others until the window ends, so with P processes up to (P − 1) × the
 * largest batch may be refused early. The batch starts at 1 for a new key and doubles with every
 * reservation, and a process never holds more than max/20 tokens of a key (at least 1), prefetched
 * ones included: a limit of 600 loses at most 30 per other process, and small limits (≤ 39 a
 * window) stay exact. One process alone is always exact.
 *
 * A key whose reservation came back short is exhausted for the rest of the window: its further
 * requests are refused locally, so a client hammering past its limit costs Redis nothing.
 * Local windows end no later than Redis's (they are timed from when the reservation was sent),
 * so tokens never outlive the window they were counted in.
 */
import type { Redis } from 'ioredis';
import { integerPairReply, redisScript } from '../../infra/redis-scripts.js';

/** INCRBY the reservation; start the window's expiry on the first; answer [count, pttl]. */
const RESERVE_LUA = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}`;

const reserveScript = redisScript('rate-reserve', RESERVE_LUA, integerPairReply);
/** The largest batch, as a fraction of the limit (see the tolerance above). */
export const MAX_BATCH_DIVISOR = 20;

/** The most tokens one process holds at once for a key limited to `max` a window. */
export function largestBatch(max: number): number {
  return Math.max(1, Math.floor(max / MAX_BATCH_DIVISOR));
}

type Reserve = (key: string, tokens: number, windowMs: number) => Promise<[number, number]>;

interface Bucket {
  /** Its Redis key (the store's prefix, the lane's key, the client), made once per window. */
  key: string;
  /** Tokens this process reserved and has not spent. */
  held: number;
  /** The shared counter as of our last reservation (everyone's reservations, ours included), capped at the limit. */
  count: number;
  /** When this window ends locally (ms since the epoch); 0 = no reservation yet. */
  windowEnd: number;
  /** Size of the next reservation. */
  batch: number;
  exhausted: boolean;
  inflight: Promise<void> | null;
}

interface Counted {
  current: number;
  ttl: number;
}

type Callback = (err: Error | null, result?: Counted) => void;

/**
 * The buckets of one route and method class for one kind of client (`READ:/health:ip:`): the
 * per-request lookup is by the client alone (an address or key id whose hash V8 already holds),
 * not by a key string built and hashed anew for every request. The Redis key is unchanged: the
 * store's prefix, the lane's key and the client.
 */
export interface Lane {
  readonly key: string;
  readonly buckets: Map<string, Bucket>;
}

interface Shared {
  lanes: Map<string, Lane>;
  reserve: Reserve;
  sweeper: NodeJS.Timeout;
}

export class BatchedRedisStore {
  /** One store per app; `prefix` namespaces its Redis keys. */
  static create(redis: Redis, prefix: string): BatchedRedisStore {
    const lanes = new Map<string, Lane>();
    // Forget finished windows once a minute, so memory follows the keys active in one window.
    const sweeper = setInterval(() => {
      const now = Date.now();
      for (const { buckets } of lanes.values())
        for (const [client, bucket] of buckets) if (bucket.windowEnd <= now && !bucket.inflight) buckets.delete(client);
    }, 60_000);
    sweeper.unref();
    return new BatchedRedisStore(
      { lanes, sweeper, reserve: (key, tokens, windowMs) => reserveScript(redis, [key], [tokens, windowMs]) },
      prefix,
    );
  }

  private constructor(
    private readonly shared: Shared,
    private readonly prefix: string,
  ) {}

  /** The lane whose Redis keys start with `key` after the store's prefix (made on first use, kept). */
  lane(key: string): Lane {
    let lane = this.shared.lanes.get(key);
    if (!lane) this.shared.lanes.set(key, (lane = { key, buckets: new Map() }));
    return lane;
  }

  /** Count one request of `key` (a lane of its own: the Redis key is the prefix and `key`). */
  incr(key: string, cb: Callback, windowMs: number, max: number): void {
    this.incrIn(this.lane(''), key, cb, windowMs, max);
  }

  /** Count one request of `client` in `lane`; calls back synchronously when a local token answers (the hook's fast path). */
  incrIn(lane: Lane, client: string, cb: Callback, windowMs: number, max: number): void {
    const now = Date.now();
    const bucket = this.bucket(lane, client, now);
    // The fast path, taken by nearly every request of a busy key: no promise, no Redis.
    if (bucket.held > 0) {
      cb(null, this.spend(bucket, now, windowMs, max));
      return;
    }
    if (bucket.exhausted) {
      cb(null, { current: Math.max(bucket.count, max + 1), ttl: bucket.windowEnd - now });
      return;
    }
    this.slow(lane, client, windowMs, max).then(
      (r) => cb(null, r),
      (e: Error) => cb(e),
    );
  }

  close(): void {
    clearInterval(this.shared.sweeper);
    for (const { buckets } of this.shared.lanes.values()) buckets.clear();
  }

  /** Waits for reservations until a token is ours or the window's limit is spent. */
  private async slow(lane: Lane, client: string, windowMs: number, max: number): Promise<Counted> {
    for (;;) {
      const now = Date.now();
      const bucket = this.bucket(lane, client, now);
      if (bucket.held > 0) return this.spend(bucket, now, windowMs, max);
      if (bucket.exhausted) return { current: Math.max(bucket.count, max + 1), ttl: bucket.windowEnd - now };
      await this.refill(bucket, windowMs, max);
    }
  }

  private spend(bucket: Bucket, now: number, windowMs: number, max: number): Counted {
    bucket.held--;
    // A busy key fetches its next batch before this one runs out, so its requests never wait.
    if (bucket.batch >= 4 && bucket.held < bucket.batch / 2 && !bucket.inflight && !bucket.exhausted) {
      this.refill(bucket, windowMs, max).catch(() => undefined); // the next request that needs it sees the error
    }
    return { current: bucket.count - bucket.held, ttl: bucket.windowEnd - now };
  }

  /** One reservation at a time per key; concurrent requests share it. */
  private refill(bucket: Bucket, windowMs: number, max: number): Promise<void> {
    if (bucket.inflight) return bucket.inflight;
    // Never hold more than the largest batch, prefetched tokens included: that bounds what one
    // process can keep from the others.
    const cap = largestBatch(max);
    const tokens = Math.max(1, Math.min(bucket.batch, cap - bucket.held));
    const sentAt = Date.now();
    bucket.inflight = this.shared.reserve(bucket.key, tokens, windowMs).then(
      ([count, ttl]) => {
        bucket.inflight = null;
        // A counter below what we saw means Redis started a new window meanwhile (the reservation
        // crossed the boundary): tokens held from the old window are void.
        if (count - tokens < bucket.count) {
          bucket.held = 0;
          bucket.exhausted = false;
        }
        // Ours are the tokens of this reservation that fall within the limit.
        const granted = Math.max(0, Math.min(tokens, max - (count - tokens)));
        bucket.held += granted;
        // Reservations past the limit grant nothing: what has been counted is at most the limit.
        bucket.count = Math.min(count, max);
        bucket.windowEnd = sentAt + Number(ttl);
        if (granted < tokens) bucket.exhausted = true;
        bucket.batch = Math.min(bucket.batch * 2, cap);
      },
      (error: unknown) => {
        bucket.inflight = null;
        throw error;
      },
    );
    return bucket.inflight;
  }

  /** The client's bucket for the window in progress; a new one once the last window has ended. */
  private bucket(lane: Lane, client: string, now: number): Bucket {
    const existing = lane.buckets.get(client);
    if (existing && (existing.windowEnd > now || existing.windowEnd === 0)) return existing;
    // A key that was busy in the last window starts at half its batch (it adapts downwards).
    const fresh: Bucket = {
      key: existing?.key ?? this.prefix + lane.key + client,
      held: 0,
      count: 0,
      windowEnd: 0,
      batch: Math.max(1, Math.floor((existing?.batch ?? 1) / 2)),
      exhausted: false,
      inflight: null,
    };
    lane.buckets.set(client, fresh);
    return fresh;
  }
}
