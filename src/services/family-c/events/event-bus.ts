/**
 * The orderbook's event bus on Redis: the matcher and the keeper publish, every API node's
 * WebSocket hub fans out to its own clients. Market events get their per-market sequence number
 * from Redis itself (INCRBY in one script with the PUBLISH and the book's update), so events of
 * one market stay gap-free and ordered whoever publishes them (the matcher, the keeper, a new
 * matcher after a takeover), and the stored book always names the last event it includes.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { integerReply, redisScript } from '../../../infra/redis-scripts.js';
import type { StoredBook } from './book-snapshot.js';
import type { MarketEvent, UserEvent } from './clob-events.js';

/**
 * KEYS: seq, book head, book levels. ARGV: channel, marketId, head json ('' = keep), '1' to
 * replace every level (a takeover) else '0', the user channel ('' = none) and the user events'
 * json, L, then L level field/size pairs (size '0' removes the level), then the events json. The
 * book changes by its deltas, so a batch costs the levels it changed, not the book's width; the
 * head names the last event the book includes. A matcher batch's user events ride along, published
 * after its market events as a PUBLISH of their own would be: one command per batch instead of two.
 */
const PUBLISH_MARKET = `
local L = tonumber(ARGV[7])
local firstEvent = 8 + 2 * L
local n = #ARGV - firstEvent + 1
local last = redis.call('INCRBY', KEYS[1], n)
local first = last - n + 1
if ARGV[4] == '1' then
  redis.call('DEL', KEYS[3])
end
for i = 0, L - 1 do
  local field, size = ARGV[8 + 2 * i], ARGV[9 + 2 * i]
  if size == '0' then
    redis.call('HDEL', KEYS[3], field)
  else
    redis.call('HSET', KEYS[3], field, size)
  end
end
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[2], '{"seq":' .. last .. ',' .. string.sub(ARGV[3], 2))
end
if n > 0 then
  local parts = {}
  for i = 1, n do
    parts[i] = '{"seq":' .. (first + i - 1) .. ',' .. string.sub(ARGV[firstEvent + i - 1], 2)
  end
  redis.call('PUBLISH', ARGV[1], '{"marketId":' .. cjson.encode(ARGV[2]) .. ',"events":[' .. table.concat(parts, ',') .. ']}')
end
if ARGV[5] ~= '' then
  redis.call('PUBLISH', ARGV[5], ARGV[6])
end
return last
`;
const publishMarketScript = redisScript('publish-market', PUBLISH_MARKET, integerReply);

/** KEYS: book head, seq, book levels: the three read at one point of the market's sequence. */
const READ_BOOK = `return {redis.call('GET', KEYS[1]), redis.call('GET', KEYS[2]), redis.call('HGETALL', KEYS[3])}`;

/** The small part of a book published with every matcher batch (its levels go to the hash). */
export interface BookHeadPayload {
  marketId: string;
  bestBid: unknown;
  bestAsk: unknown;
  lastPrice: unknown;
  timestamp: number;
}

/** What a matcher batch changed in its book: the head and the levels it touched (`reset`: these are all of them). */
export interface BookChange {
  head: BookHeadPayload;
  levels: ReadonlyArray<readonly [field: string, size: string]>;
  reset?: boolean;
}

export class ClobEventBus {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {}

  get marketChannel(): string {
    return `${this.prefix}:clob:market-events`;
  }

  get userChannel(): string {
    return `${this.prefix}:clob:user-events`;
  }

  /** The book's head: top, last prices and the seq of the last event the book includes. */
  headKey(marketId: string): string {
    return `${this.prefix}:clob:book-head:${marketId}`;
  }

  /** The book's levels: a hash `outcome:side:price` → size. */
  levelsKey(marketId: string): string {
    return `${this.prefix}:clob:book-levels:${marketId}`;
  }

  /** The market's last assigned sequence number (the head may name an older one: see ws/book-frame). */
  seqKey(marketId: string): string {
    return `${this.prefix}:clob:seq:${marketId}`;
  }

  /**
   * Publishes a market's events (stamped with seq) and, when given, applies the batch's change to
   * its stored book, then publishes `user` (as `publishUser` would) in the same script. Resolves
   * with the market's last sequence number (null when Redis could not be reached: the user events
   * were not published either, and the warning says so).
   */
  async publishMarket(marketId: string, events: MarketEvent[], book?: BookChange, user: UserEvent[] = []): Promise<number | null> {
    if (events.length === 0 && !book) {
      await this.publishUser(user);
      return null;
    }
    const levels = book?.levels.flatMap(([field, size]) => [field, size]) ?? [];
    const args = [
      this.marketChannel,
      marketId,
      book ? JSON.stringify(book.head) : '',
      book?.reset ? '1' : '0',
      user.length > 0 ? this.userChannel : '',
      user.length > 0 ? JSON.stringify(user) : '',
      String(levels.length / 2),
      ...levels,
      ...events.map((e) => JSON.stringify({ ...e, timestamp: Date.now() })),
    ];
    try {
      return await publishMarketScript(this.redis, [this.seqKey(marketId), this.headKey(marketId), this.levelsKey(marketId)], args);
    } catch (err) {
      // Clients see a sequence gap and resync from the stored book; the database is unaffected.
      this.log.warn({ err, market: marketId, userEvents: user.length }, 'could not publish market events');
      return null;
    }
  }

  async publishUser(events: UserEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      await this.redis.publish(this.userChannel, JSON.stringify(events));
    } catch (err) {
      this.log.warn({ err }, 'could not publish user events');
    }
  }

  /** The stored book, its head and the seq counter read at once (`via`: another connection, e.g. the WebSocket reader's). */
  async readBook(marketId: string, via: Redis = this.redis): Promise<StoredBook> {
    const [head, counter, levels] = (await via.eval(
      READ_BOOK,
      3,
      this.headKey(marketId),
      this.seqKey(marketId),
      this.levelsKey(marketId),
    )) as [string | null, string | null, string[]];
    return { head, counter, levels };
  }

  /** The market's last assigned sequence number, null before its first event. */
  async readSeq(marketId: string): Promise<number | null> {
    const raw = await this.redis.get(this.seqKey(marketId));
    return raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  }

  /** Several markets' heads in one round trip (null where none was published). */
  async readHeads(marketIds: readonly string[]): Promise<Array<string | null>> {
    if (marketIds.length === 0) return [];
    return this.redis.mget(marketIds.map((id) => this.headKey(id)));
  }

  /** Only the head (best bid/ask, last prices): what market listings need, without the levels. */
  async readHead(marketId: string): Promise<string | null> {
    return this.redis.get(this.headKey(marketId));
  }
}
