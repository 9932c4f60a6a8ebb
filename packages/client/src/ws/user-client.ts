/**
 * The user channel (`/v2/ws/user`, docs/websockets.md): order, fill and balance events of the
 * pubkeys watched, public per pubkey. The connection keeps itself up as the book's does
 * (channel-socket.ts) and watches every pubkey again after a reconnect. User events carry no
 * sequence number, so a client cannot see that it missed one: `connected` with `reconnect: true`
 * (or a 1012 close before it) is the moment to re-read orders and fills from REST.
 */
import type { BackoffOptions } from './backoff.js';
import { ChannelSocket, type KeepAliveOptions, type WebSocketConstructor } from './channel-socket.js';
import { Emitter } from './emitter.js';
import { BookClientError } from './book-client.js';
import { WS_SERVER_LIMITS, type BalanceUpdateFrame, type ServerFrame, type UserFillFrame, type UserOrderFrame } from './messages.js';
import { channelUrl, defaultWebSocket } from './socket-url.js';
import { commandFrames } from './subscriptions.js';
import { Timers } from './timers.js';

export interface UserClientOptions extends KeepAliveOptions {
  /** The daemon's base URL (`http://host:port`, `ws://…`) or the channel's own (`…/v2/ws/user`). */
  url: string;
  WebSocket?: WebSocketConstructor;
  backoff?: BackoffOptions;
  /** Wait before watching again after an `UNAVAILABLE` answer (default 1 s). */
  retryMs?: number;
}

export interface UserClientEvents {
  order: UserOrderFrame;
  /** Fills by status; a fill can come back `fill:matched` (requeued): key by `fill.id`, keep the latest. */
  fill: UserFillFrame;
  balance: BalanceUpdateFrame;
  /** After a reconnect (`reconnect: true`) events may have been missed: re-read orders and fills from REST. */
  connected: { reconnect: boolean };
  disconnected: { code: number; reason: string; retryInMs: number | null };
  error: Error;
}

interface Watch {
  /** Market UUIDs or slugs, or '*' for all the pubkey's markets. */
  markets: string[] | '*';
  waiters: Array<{ resolve(): void; reject(error: Error): void }>;
}

export class UserClient extends Emitter<UserClientEvents> {
  private readonly socket: ChannelSocket;
  private readonly watches = new Map<string, Watch>();
  private readonly retries = new Timers();

  constructor(private readonly options: UserClientOptions) {
    super();
    const handlers = {
      open: (reconnect: boolean) => {
        this.emit('connected', { reconnect });
        for (const pubkey of this.watches.keys()) this.send(pubkey);
      },
      frame: (frame: ServerFrame, answers: { context?: unknown } | undefined) => this.frame(frame, answers?.context as string | undefined),
      down: (info: UserClientEvents['disconnected']) => this.emit('disconnected', info),
      problem: (error: Error) => this.emit('error', error),
    };
    this.socket = new ChannelSocket(channelUrl(options.url, 'user'), options.WebSocket ?? defaultWebSocket(), handlers, options);
    this.socket.connect();
  }

  /** Watches a pubkey's events (of some markets, or all of them); resolves once the daemon acknowledged. */
  watch(pubkey: string, markets: string[] | '*' = '*'): Promise<void> {
    const count = (m: string[] | '*') => (m === '*' ? 1 : m.length);
    let total = count(markets);
    for (const [key, w] of this.watches) if (key !== pubkey) total += count(w.markets);
    if (total > WS_SERVER_LIMITS.subscriptionsPerConnection) {
      return Promise.reject(new RangeError(`at most ${WS_SERVER_LIMITS.subscriptionsPerConnection} pubkey × market pairs per connection`));
    }
    const watch: Watch = { markets, waiters: this.watches.get(pubkey)?.waiters ?? [] };
    this.watches.set(pubkey, watch);
    const acked = new Promise<void>((resolve, reject) => watch.waiters.push({ resolve, reject }));
    this.send(pubkey);
    return acked;
  }

  unwatch(pubkey: string): void {
    if (!this.watches.delete(pubkey)) return;
    this.socket.send(JSON.stringify({ type: 'unsubscribe', pubkey }));
  }

  get connected(): boolean {
    return this.socket.isOpen;
  }

  /** Drops the connection as a network failure would; it comes back with backoff. */
  reconnect(): void {
    this.socket.reconnect();
  }

  async close(): Promise<void> {
    this.retries.clearAll();
    for (const watch of this.watches.values()) for (const w of watch.waiters.splice(0)) w.reject(new Error('UserClient closed'));
    await this.socket.close();
    this.removeAll();
  }

  private send(pubkey: string): void {
    const { markets } = this.watches.get(pubkey)!;
    for (const frame of commandFrames('subscribe', markets === '*' ? ['*'] : markets, { pubkey })) this.socket.send(frame.text, pubkey);
  }

  private frame(frame: ServerFrame, pubkey: string | undefined): void {
    if (frame.event === 'subscribed' || frame.event === 'unsubscribed') {
      const watch = frame.pubkey === undefined ? undefined : this.watches.get(frame.pubkey);
      if (frame.event === 'subscribed' && watch) for (const w of watch.waiters.splice(0)) w.resolve();
      return;
    }
    if (frame.event === 'error') {
      const error = new BookClientError(frame.code, frame.message, frame.markets ?? []);
      const watch = pubkey === undefined ? undefined : this.watches.get(pubkey);
      if (watch && frame.code === 'UNAVAILABLE') {
        // The node could not complete it (its database away, too many commands waiting): again later.
        this.retries.later(this.options.retryMs ?? 1_000, () => this.watches.has(pubkey!) && this.send(pubkey!));
      } else if (watch && watch.waiters.length > 0) {
        this.watches.delete(pubkey!); // refused whole: an unknown market, a bad pubkey, a limit
        for (const w of watch.waiters.splice(0)) w.reject(error);
      }
      this.emit('error', error);
      return;
    }
    if (!('owner' in frame)) return;
    if (frame.event.startsWith('order:')) this.emit('order', frame as UserOrderFrame);
    else if (frame.event === 'balance:update') this.emit('balance', frame as BalanceUpdateFrame);
    // The deprecated duplicate of a `fill:failed` (docs/websockets.md): listen to `fill:failed` only.
    else if (frame.event.startsWith('fill:') && frame.event !== 'fill:failed_insufficient_balance')
      this.emit('fill', frame as UserFillFrame);
  }
}
