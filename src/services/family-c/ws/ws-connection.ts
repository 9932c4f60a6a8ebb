/** One client connection as the hub sees it: its socket port, its subscriptions and its limits. */
import { RateWindow } from './rate-window.js';
import { WS_LIMITS, type Channel } from './ws-protocol.js';

/**
 * A frame as it goes to sockets: text, or its UTF-8 bytes. Frames fanned out to many sockets are
 * encoded once as bytes (sending a string makes ws encode it again for every socket).
 */
export type WireFrame = string | Buffer;

export const encodeFrame = (text: string): Buffer => Buffer.from(text, 'utf8');

/** What the hub needs of a socket (the adapter wraps a `ws` WebSocket). */
export interface WsPeer {
  /** Sends a text frame (bytes are UTF-8 text, never a binary frame). */
  send(frame: WireFrame): void;
  close(code: number, reason: string): void;
  /** Bytes accepted by send() but not yet written to the network. */
  readonly bufferedAmount: number;
  /** Optional: hold writes between cork and uncork so several frames leave in one write. */
  cork?(): void;
  uncork?(): void;
}

export const ALL_MARKETS = '*';

export class WsConnection {
  /** Market channel: subscribed market UUIDs. */
  readonly markets = new Set<string>();
  /** User channel: pubkey → market UUIDs, or `*` for all of its markets. */
  readonly owners = new Map<string, Set<string>>();
  readonly rate = new RateWindow(WS_LIMITS.messagesPerSecond, 1_000);
  closed = false;
  /** Commands run one at a time in arrival order (a subscribe may wait for market lookups). */
  work: Promise<void> = Promise.resolve();
  queued = 0;

  constructor(
    readonly id: number,
    readonly channel: Channel,
    readonly peer: WsPeer,
    public lastSeen: number,
  ) {}

  get subscriptionCount(): number {
    let n = this.markets.size;
    for (const set of this.owners.values()) n += set.size;
    return n;
  }

  /** Whether a user event of `owner` (in `marketId`, if it names one) is for this connection. */
  wants(owner: string, marketId: unknown): boolean {
    const set = this.owners.get(owner);
    if (!set) return false;
    return typeof marketId !== 'string' || set.has(ALL_MARKETS) || set.has(marketId);
  }
}
