/**
 * A local order book per market, kept from the daemon's market channel (`/v2/ws/market`,
 * docs/websockets.md): the `book` snapshot, then every event in `seq` order (local-book.ts).
 *
 * It repairs itself. A gap in `seq` re-subscribes that market (the daemon's documented way to
 * ask for a fresh `book`), gaps of one turn going out in one frame; a reconnect (channel-socket.ts:
 * backoff with jitter, PING keep-alive) subscribes every market again, and each book takes no
 * delta until its fresh snapshot arrived; a `BOOK_UNAVAILABLE` error subscribes again after
 * `retryMs`. `book(marketId, outcome)` has the shape of GET /v2/clob/markets/{id}/orderbook's
 * `yes`/`no`, so the two compare with a deep equal.
 */
import { ChannelSocket, type KeepAliveOptions, type SentCommand, type WebSocketConstructor } from './channel-socket.js';
import type { BackoffOptions } from './backoff.js';
import { bookHash } from './book-hash.js';
import { Emitter } from './emitter.js';
import { LocalBook } from './local-book.js';
import type {
  BookSide,
  BookView,
  ErrorFrame,
  MarketEventFrame,
  MarketResolvedFrame,
  Outcome,
  ServerFrame,
  TradeFrame,
} from './messages.js';
import { commandFrames, Subscriptions } from './subscriptions.js';
import { Timers } from './timers.js';
import { channelUrl, defaultWebSocket } from './socket-url.js';

export interface BookClientOptions extends KeepAliveOptions {
  /** The daemon's base URL (`http://host:port`, `ws://…`) or the channel's own (`…/v2/ws/market`). */
  url: string;
  /** A WebSocket constructor: a browser's `WebSocket`; node uses the `ws` package by default. */
  WebSocket?: WebSocketConstructor;
  backoff?: BackoffOptions;
  /** Wait before subscribing again after `BOOK_UNAVAILABLE` or `UNAVAILABLE` (default 1 s). */
  retryMs?: number;
}

/** Why a market's book is being read again. */
export type ResyncReason = 'gap' | 'reconnect' | 'unavailable';

export interface BookClientEvents {
  /** A market's book changed: a whole snapshot, or one event applied (`cause`). */
  update: { marketId: string; seq: number; cause: 'book' | MarketEventFrame['event'] };
  /** A gap in seq: the book waits for a fresh snapshot, already asked for. */
  gap: { marketId: string; expected: number; got: number };
  /** The fresh snapshot after a gap, a reconnect or an unavailable book arrived. */
  resynced: { marketId: string; seq: number; reason: ResyncReason };
  /** A fill of a followed market, `matched` then `settled` (same `id`). */
  trade: TradeFrame;
  resolved: MarketResolvedFrame;
  connected: { reconnect: boolean };
  disconnected: { code: number; reason: string; retryInMs: number | null };
  error: Error;
}

/** An `{"event":"error"}` frame of the daemon, or a refusal of this client. */
export class BookClientError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly markets: string[] = [],
  ) {
    super(`${code}: ${message}`);
    this.name = 'BookClientError';
  }
}

export class BookClient extends Emitter<BookClientEvents> {
  private readonly socket: ChannelSocket;
  private readonly subs = new Subscriptions();
  private readonly books = new Map<string, LocalBook>();
  /** Markets whose fresh snapshot is awaited, and why. */
  private readonly resyncing = new Map<string, ResyncReason>();
  /** Re-subscriptions gathered in this turn, sent together. */
  private readonly toResync = new Set<string>();
  private readonly timers = new Timers();
  private closed = false;

  constructor(private readonly options: BookClientOptions) {
    super();
    this.socket = new ChannelSocket(
      channelUrl(options.url, 'market'),
      options.WebSocket ?? defaultWebSocket(),
      {
        open: (reconnect) => this.opened(reconnect),
        frame: (frame, answers) => this.frame(frame, answers),
        down: (info) => this.emit('disconnected', info),
        problem: (error) => this.emit('error', error),
      },
      options,
    );
    this.socket.connect();
  }

  /** Follows markets (UUIDs or slugs); resolves with their UUIDs once the daemon acknowledged them. */
  subscribe(markets: string[]): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('BookClient is closed'));
    const fresh = [...new Set(markets)].filter((m) => !this.subs.has(m));
    const acked = this.subs.add([...new Set(markets)]);
    if (fresh.length > 0) this.sendCommands('subscribe', fresh);
    return acked;
  }

  /** Stops following markets and forgets their books. */
  unsubscribe(markets: string[]): void {
    const ids = this.subs.remove(markets);
    for (const id of ids) {
      this.books.delete(id);
      this.resyncing.delete(id);
    }
    if (ids.length > 0) this.sendCommands('unsubscribe', ids);
  }

  /** One outcome's levels, REST-shaped (bids high to low, asks low to high); undefined before the first snapshot. */
  book(market: string, outcome: Outcome, depth?: number): BookSide | undefined {
    const book = this.localBook(market);
    return book?.seq === null ? undefined : book?.side(outcome, depth);
  }

  /** The whole book (both outcomes, best prices, last price, status, seq); undefined before the first snapshot. */
  view(market: string, depth?: number): BookView | undefined {
    const book = this.localBook(market);
    return book?.seq === null ? undefined : book?.view(depth);
  }

  /** The REST orderbook's `hash` of this book (both outcomes, every level); undefined before the first snapshot. */
  async hash(market: string): Promise<string | undefined> {
    const view = this.view(market);
    return view && bookHash(view.yes, view.no);
  }

  /** The seq of the last event in the market's book, and whether it is in sync (no gap, no missing part). */
  state(market: string): { seq: number | null; synced: boolean } | undefined {
    const book = this.localBook(market);
    return book && { seq: book.seq, synced: book.synced };
  }

  /** Resolves when the market's book is in sync at `seq` or later (e.g. a REST orderbook's `seq`). */
  waitForSeq(market: string, seq: number, timeoutMs = 10_000): Promise<void> {
    const reached = () => {
      const s = this.state(market);
      return s !== undefined && s.synced && s.seq !== null && s.seq >= seq;
    };
    if (reached()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const stop = () => {
        offUpdate();
        this.timers.clear(timer);
      };
      const offUpdate = this.on('update', () => reached() && (stop(), resolve()));
      const timer = this.timers.later(timeoutMs, () => {
        offUpdate();
        reject(new Error(`book of ${market} not at seq ${seq} within ${timeoutMs} ms (at ${JSON.stringify(this.state(market))})`));
      });
    });
  }

  /** True while the market channel's socket is open. */
  get connected(): boolean {
    return this.socket.isOpen;
  }

  /** Drops the connection as a network failure would; it comes back with backoff and resyncs. */
  reconnect(): void {
    this.socket.reconnect();
  }

  /** Closes the socket, clears every timer and listener; pending subscribe promises reject. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.timers.clearAll();
    this.subs.abandon(new Error('BookClient closed'));
    await this.socket.close();
    this.removeAll();
  }

  private localBook(market: string): LocalBook | undefined {
    const id = this.subs.idOf(market);
    return id === undefined ? undefined : this.books.get(id);
  }

  private opened(reconnect: boolean): void {
    for (const [id, book] of this.books) {
      book.invalidate();
      if (book.seq !== null) this.resyncing.set(id, 'reconnect');
    }
    this.toResync.clear();
    this.emit('connected', { reconnect });
    this.sendCommands('subscribe', this.subs.refs());
  }

  private sendCommands(type: 'subscribe' | 'unsubscribe', refs: string[]): void {
    for (const frame of commandFrames(type, refs)) this.socket.send(frame.text, { type, refs: frame.refs });
  }

  private frame(frame: ServerFrame, answers: SentCommand | undefined): void {
    switch (frame.event) {
      case 'book': {
        const book = this.books.get(frame.marketId);
        if (book && book.snapshot(frame)) this.whole(book);
        return;
      }
      case 'book_levels': {
        const book = this.books.get(frame.marketId);
        if (book && book.addLevels(frame)) this.whole(book);
        return;
      }
      case 'price_change':
      case 'best_bid_ask':
      case 'trade':
      case 'market_resolved':
        return this.event(frame);
      case 'subscribed': {
        const sent = answers?.context as { type: string; refs: string[] } | undefined;
        if (sent?.type === 'subscribe')
          for (const ref of this.subs.acknowledged(sent.refs, frame.markets)) this.sendCommands('subscribe', [ref]);
        // A market let go while its subscription was on its way is let go on the daemon too.
        const unwanted = frame.markets.filter((id) => !this.subs.wantsId(id));
        for (const id of frame.markets) if (!unwanted.includes(id) && !this.books.has(id)) this.books.set(id, new LocalBook(id));
        if (unwanted.length > 0) this.sendCommands('unsubscribe', unwanted);
        return;
      }
      case 'unsubscribed':
        return;
      case 'error':
        return this.serverError(frame, answers?.context as { type: string; refs: string[] } | undefined);
      default:
        return; // user-channel frames do not come here
    }
  }

  private event(frame: MarketEventFrame): void {
    const book = this.books.get(frame.marketId);
    if (!book) return;
    const expected = (book.seq ?? 0) + 1;
    const result = book.apply(frame);
    if (result === 'gap') {
      this.emit('gap', { marketId: book.marketId, expected, got: frame.seq });
      this.resync(book.marketId, 'gap');
    } else if (result === 'applied') {
      this.emit('update', { marketId: book.marketId, seq: frame.seq, cause: frame.event });
      if (frame.event === 'trade') this.emit('trade', frame);
      if (frame.event === 'market_resolved') this.emit('resolved', frame);
    }
  }

  private whole(book: LocalBook): void {
    const reason = this.resyncing.get(book.marketId);
    this.resyncing.delete(book.marketId);
    this.emit('update', { marketId: book.marketId, seq: book.seq!, cause: 'book' });
    if (reason) this.emit('resynced', { marketId: book.marketId, seq: book.seq!, reason });
  }

  /** Asks for a fresh book: the markets of one turn go out in one subscribe frame. */
  private resync(marketId: string, reason: ResyncReason, delayMs = 0): void {
    this.books.get(marketId)?.invalidate();
    this.resyncing.set(marketId, reason);
    if (delayMs > 0) {
      this.timers.later(delayMs, () => this.books.has(marketId) && this.resync(marketId, reason));
      return;
    }
    if (this.toResync.size === 0) {
      queueMicrotask(() => {
        const ids = [...this.toResync].filter((id) => this.books.has(id));
        this.toResync.clear();
        if (!this.closed && ids.length > 0) this.sendCommands('subscribe', ids);
      });
    }
    this.toResync.add(marketId);
  }

  private serverError(frame: ErrorFrame, sent: { type: string; refs: string[] } | undefined): void {
    const error = new BookClientError(frame.code, frame.message, frame.markets ?? (frame.marketId ? [frame.marketId] : []));
    const retry = this.options.retryMs ?? 1_000;
    if (frame.code === 'BOOK_UNAVAILABLE' && frame.marketId) {
      this.resync(frame.marketId, 'unavailable', retry); // the daemon dropped that subscription: subscribe again
    } else if (sent?.type === 'subscribe' && frame.code === 'UNAVAILABLE') {
      this.timers.later(retry, () =>
        this.sendCommands(
          'subscribe',
          sent.refs.filter((r) => this.subs.has(r) || this.books.has(r)),
        ),
      );
    } else if (sent?.type === 'subscribe') {
      // Refused whole (an unknown market, a limit): drop what was refused, subscribe the rest again.
      const refused = frame.code === 'UNKNOWN_MARKET' && frame.markets ? frame.markets : sent.refs;
      this.subs.refused(refused, error);
      const rest = sent.refs.filter((r) => !refused.includes(r) && (this.subs.has(r) || this.books.has(r)));
      if (rest.length > 0) this.sendCommands('subscribe', rest);
    }
    this.emit('error', error);
  }
}
