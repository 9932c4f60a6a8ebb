/**
 * The orderbook's event bus on Redis: the matcher and the keeper publish, every API node's
 * WebSocket hub fans out to its own clients. Market events get their per-market sequence number
 * from Redis itself (INCRBY in one script with the PUBLISH and the snapshot write), so events of
 * one market stay gap-free and ordered whoever publishes them (the matcher, the keeper, a new
 * matcher after a takeover), and the stored book snapshot always names the last event it includes.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BookView } from './book-snapshot.js';
import type { MarketEvent, UserEvent } from './clob-events.js';

/** KEYS: seq, snapshot. ARGV: channel, marketId, snapshot json ('' = keep), events json... */
const PUBLISH_MARKET = `
local n = #ARGV - 3
local last = redis.call('INCRBY', KEYS[1], n)
local first = last - n + 1
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[2], '{"seq":' .. last .. ',' .. string.sub(ARGV[3], 2))
end
local parts = {}
for i = 1, n do
  parts[i] = '{"seq":' .. (first + i - 1) .. ',' .. string.sub(ARGV[3 + i], 2)
end
redis.call('PUBLISH', ARGV[1], '{"marketId":' .. cjson.encode(ARGV[2]) .. ',"events":[' .. table.concat(parts, ',') .. ']}')
return last
`;

type SequencedBook = BookView & { seq: number };

export interface BookSnapshotPayload {
  marketId: string;
  timestamp: number;
  [key: string]: unknown;
}

export class ClobEventBus {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly log: Logger,
  ) {
    this.redis.defineCommand('pmxPublishMarket', { numberOfKeys: 2, lua: PUBLISH_MARKET });
  }

  get marketChannel(): string {
    return `${this.prefix}:clob:market-events`;
  }

  get userChannel(): string {
    return `${this.prefix}:clob:user-events`;
  }

  snapshotKey(marketId: string): string {
    return `${this.prefix}:clob:book:${marketId}`;
  }

  /** The market's last assigned sequence number (a snapshot may name an older one: see ws/book-reader). */
  seqKey(marketId: string): string {
    return `${this.prefix}:clob:seq:${marketId}`;
  }

  /** Publishes a market's events (stamped with seq) and, when given, replaces its book snapshot. */
  /** Resolves with the market's last sequence number (null when Redis could not be reached). */
  async publishMarket(marketId: string, events: MarketEvent[], snapshot?: BookSnapshotPayload): Promise<number | null> {
    if (events.length === 0 && !snapshot) return null;
    const args = [this.marketChannel, marketId, snapshot ? JSON.stringify(snapshot) : '', ...events.map((e) => JSON.stringify({ ...e, timestamp: Date.now() }))];
    try {
      return await (this.redis as unknown as { pmxPublishMarket(...a: string[]): Promise<number> }).pmxPublishMarket(this.seqKey(marketId), this.snapshotKey(marketId), ...args);
    } catch (err) {
      // Clients see a sequence gap and resync from the snapshot; the database is unaffected.
      this.log.warn({ err, market: marketId }, 'could not publish market events');
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

  /**
   * The stored snapshot and the market's sequence counter in one MGET, as the WebSocket `book`
   * reads them (ws/book-frame.ts): the snapshot is the book at max(its seq, counter), because
   * events published without a snapshot (the keeper's settled trades, a resolution) leave the book as it was.
   */
  async readSnapshotAtCounter(marketId: string): Promise<{ snapshot: SequencedBook | null; counter: number | null }> {
    const [raw, counter] = await this.redis.mget(this.snapshotKey(marketId), this.seqKey(marketId));
    return {
      snapshot: raw ? (JSON.parse(raw) as SequencedBook) : null,
      counter: counter && /^\d+$/.test(counter) ? Number(counter) : null,
    };
  }

  /** The market's last assigned sequence number, null before its first event. */
  async readSeq(marketId: string): Promise<number | null> {
    const raw = await this.redis.get(this.seqKey(marketId));
    return raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
  }
}
