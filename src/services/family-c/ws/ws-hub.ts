/**
 * The WebSocket hub of one API node: the connections of both channels, their subscriptions and
 * limits, and the fan-out of the bus's events to them. Pure: sockets come in as `WsPeer`s, bus
 * messages as raw text, and market lookups and book reads go out through `HubPorts`; nothing here
 * touches the network, so every rule is tested without one (and fuzzed).
 *
 * Every failure is an `error` frame or a documented close code (ws-protocol.ts): a client can
 * never make the hub throw, and a slow client is dropped instead of buffering without bound.
 */
import { executeCommand } from './ws-commands.js';
import { encodeFrame, WsConnection, type WireFrame, type WsPeer } from './ws-connection.js';
import { MarketFeeds, type SequencedFrame } from './market-feeds.js';
import { Outbox } from './outbox.js';
import { errorFrame, parseClientMessage, WS_CLOSE, type Channel } from './ws-protocol.js';

export interface HubPorts {
  /** The market UUID of each reference (UUID or slug), null where there is no such market. */
  resolveMarkets(refs: readonly string[]): Promise<Array<string | null>>;
  /** Read a market's book; answer `bookArrived`/`bookFailed` with the ticket. */
  readBook(marketId: string, ticket: number): void;
  now(): number;
  /** Runs the outbox's next send slice (default setImmediate; tests pass a synchronous one). */
  defer?(run: () => void): void;
  warn(detail: Record<string, unknown>, message: string): void;
  /** The hub closed a connection with `code` (for metrics). */
  closedWith?(code: number): void;
}

export interface HubOptions {
  /** A connection that sends nothing for this long is closed (4008). */
  idleTimeoutMs: number;
  /** A connection whose unsent bytes exceed this is closed (4010). */
  maxBufferedBytes: number;
}

/** Commands a connection may have waiting (each is small; 20/s are allowed anyway). */
const MAX_QUEUED = 20;
/** Frames a connection may have waiting in this node's outbox before it counts as a slow consumer. */
const MAX_WAITING_FRAMES = 10_000;
const MARKET_ID_PREFIX = /^\{"marketId":"([^"\\]{1,80})","events":/;

/** How often the adapter calls `sweepIdle`: a silent connection is closed within a second of its timeout. */
export const IDLE_SWEEP_MS = 1_000;

export class WsHub {
  readonly feeds: MarketFeeds<WsConnection>;
  private readonly outbox: Outbox<WsConnection>;
  private readonly connections = new Set<WsConnection>();
  /** User channel index: pubkey → connections subscribed to it. */
  readonly owners = new Map<string, Set<WsConnection>>();
  private nextId = 1;

  constructor(
    readonly ports: HubPorts,
    private readonly options: HubOptions,
  ) {
    this.outbox = new Outbox<WsConnection>((conn, frame) => this.send(conn, frame), ports.defer ?? ((run) => setImmediate(run)), 4, {
      start: (conn) => conn.peer.cork?.(),
      end: (conn) => conn.peer.uncork?.(),
    });
    this.feeds = new MarketFeeds<WsConnection>({
      send: (conn, frame) => this.deliver(conn, frame),
      readBook: (marketId, ticket) => this.ports.readBook(marketId, ticket),
      failed: (conn, marketId, message) => {
        conn.markets.delete(marketId);
        this.deliver(conn, errorFrame('BOOK_UNAVAILABLE', message, { marketId }));
      },
    });
  }

  open(channel: Channel, peer: WsPeer): WsConnection {
    const conn = new WsConnection(this.nextId++, channel, peer, this.ports.now());
    this.connections.add(conn);
    return conn;
  }

  /** A frame from a client: text, or null for a binary frame. Answers go out in frame order. */
  receive(conn: WsConnection, text: string | null): void {
    if (!this.heartbeat(conn)) return;
    if (conn.queued >= MAX_QUEUED) return this.deliver(conn, errorFrame('UNAVAILABLE', 'Too many commands waiting; slow down'));
    conn.queued++;
    conn.work = conn.work
      .then(() => {
        if (conn.closed) return;
        if (text === null) return this.deliver(conn, errorFrame('BINARY_NOT_SUPPORTED', 'Send text frames: PING or a JSON command'));
        const parsed = parseClientMessage(conn.channel, text);
        if (!parsed.ok) return this.deliver(conn, errorFrame(parsed.code as 'INVALID_MESSAGE', parsed.message));
        return executeCommand(this, conn, parsed.command);
      })
      .catch((err: unknown) => {
        this.ports.warn({ err, connection: conn.id }, 'websocket command failed');
        this.deliver(conn, errorFrame('UNAVAILABLE', 'The command could not be completed; nothing changed. Try again.'));
      })
      .finally(() => conn.queued--);
  }

  /** Any frame counts as activity and against the rate limit; false when the connection is (now) closed. */
  heartbeat(conn: WsConnection): boolean {
    if (conn.closed) return false;
    const now = this.ports.now();
    conn.lastSeen = now;
    if (conn.rate.hit(now)) return true;
    this.close(conn, WS_CLOSE.tooFast, 'more than 20 messages per second');
    return false;
  }

  /** The socket closed (either side). */
  closed(conn: WsConnection): void {
    if (conn.closed) return;
    conn.closed = true;
    this.forget(conn);
  }

  /** Closes a connection with a documented code and drops its subscriptions at once. */
  close(conn: WsConnection, code: number, reason: string): void {
    if (conn.closed) return;
    conn.closed = true;
    this.forget(conn);
    this.ports.closedWith?.(code);
    try {
      conn.peer.close(code, reason);
    } catch (err) {
      this.ports.warn({ err, connection: conn.id }, 'websocket close failed');
    }
  }

  /** Queues one frame for the connection (sent in order, in time slices: outbox.ts). */
  deliver(conn: WsConnection, frame: WireFrame): void {
    if (conn.closed) return;
    if (this.outbox.push(conn, frame) > MAX_WAITING_FRAMES)
      this.close(conn, WS_CLOSE.slowConsumer, 'slow consumer: too many unsent messages');
  }

  /** Writes one frame to the socket, or drops a client whose unsent data is over the bound. */
  private send(conn: WsConnection, frame: WireFrame): boolean {
    if (conn.closed) return false;
    if (conn.peer.bufferedAmount > this.options.maxBufferedBytes) {
      this.close(conn, WS_CLOSE.slowConsumer, 'slow consumer: too much unread data');
      return false;
    }
    try {
      conn.peer.send(frame);
      return true;
    } catch (err) {
      this.ports.warn({ err, connection: conn.id }, 'websocket send failed');
      this.close(conn, WS_CLOSE.goingAway, 'send failed');
      return false;
    }
  }

  /** A message of the market-events channel: `{"marketId", "events": [{seq, event, …}]}`. */
  marketMessage(raw: string): void {
    // Most markets have no subscriber on this node: skip them without parsing the whole message.
    const peek = MARKET_ID_PREFIX.exec(raw);
    if (peek && !this.feeds.has(peek[1]!)) return;
    let message: { marketId?: unknown; events?: unknown };
    try {
      message = JSON.parse(raw) as typeof message;
    } catch (err) {
      return this.ports.warn({ err }, 'unreadable market event message');
    }
    const { marketId, events } = message;
    if (typeof marketId !== 'string' || !Array.isArray(events))
      return this.ports.warn({ marketId }, 'market event message without marketId or events');
    if (!this.feeds.has(marketId)) return;
    const frames: SequencedFrame[] = [];
    for (const e of events as Array<{ seq?: unknown }>) {
      if (typeof e !== 'object' || e === null || !Number.isSafeInteger(e.seq))
        return this.ports.warn({ marketId }, 'market event without seq');
      frames.push({ seq: e.seq as number, frame: encodeFrame(JSON.stringify(e)) });
    }
    this.feeds.events(marketId, frames);
  }

  /** A message of the user-events channel: a JSON array of `{event, owner, marketId?, …}`. */
  userMessage(raw: string): void {
    if (this.owners.size === 0) return;
    let events: unknown;
    try {
      events = JSON.parse(raw);
    } catch (err) {
      return this.ports.warn({ err }, 'unreadable user event message');
    }
    if (!Array.isArray(events)) return this.ports.warn({}, 'user event message is not an array');
    for (const e of events as Array<{ owner?: unknown; marketId?: unknown }>) {
      if (typeof e !== 'object' || e === null || typeof e.owner !== 'string') continue;
      const conns = this.owners.get(e.owner);
      if (!conns) continue;
      let frame: Buffer | undefined;
      for (const conn of conns) {
        if (conn.wants(e.owner, e.marketId)) this.deliver(conn, (frame ??= encodeFrame(JSON.stringify(e))));
      }
    }
  }

  bookArrived(marketId: string, ticket: number, book: SequencedFrame): void {
    this.feeds.bookArrived(marketId, ticket, book);
  }

  bookFailed(marketId: string, ticket: number, message: string): void {
    this.feeds.bookFailed(marketId, ticket, message);
  }

  /** Closes connections silent for the idle timeout; the adapter calls this every IDLE_SWEEP_MS. */
  sweepIdle(): void {
    const cutoff = this.ports.now() - this.options.idleTimeoutMs;
    for (const conn of this.connections) {
      if (conn.lastSeen <= cutoff)
        this.close(conn, WS_CLOSE.idle, `nothing received for ${this.options.idleTimeoutMs / 1000} s; send PING every ~15 s`);
    }
  }

  /**
   * The node's Redis subscription was re-established: events may have been missed meanwhile.
   * Market subscribers get fresh books; user-channel clients are closed (1012) to reconnect and
   * reconcile from the REST API, as user events carry no sequence numbers to resync from.
   */
  busReconnected(): void {
    this.feeds.resyncAll();
    for (const conn of this.connections) {
      if (conn.channel === 'user' && conn.owners.size > 0)
        this.close(conn, WS_CLOSE.serviceRestart, 'event stream interrupted; reconnect and re-read orders');
    }
  }

  stats() {
    let market = 0;
    let user = 0;
    for (const conn of this.connections) {
      if (conn.channel === 'market') market++;
      else user++;
    }
    return { connections: { market, user }, owners: this.owners.size, feeds: this.feeds.stats(), unsent: this.outbox.waiting };
  }

  private forget(conn: WsConnection): void {
    this.connections.delete(conn);
    this.outbox.drop(conn);
    for (const marketId of conn.markets) this.feeds.remove(conn, marketId);
    conn.markets.clear();
    for (const owner of conn.owners.keys()) this.unindexOwner(conn, owner);
    conn.owners.clear();
  }

  /** Removes `conn` from the user index of `owner` (the caller updates conn.owners). */
  unindexOwner(conn: WsConnection, owner: string): void {
    const conns = this.owners.get(owner);
    conns?.delete(conn);
    if (conns?.size === 0) this.owners.delete(owner);
  }

  indexOwner(conn: WsConnection, owner: string): void {
    let conns = this.owners.get(owner);
    if (!conns) this.owners.set(owner, (conns = new Set()));
    conns.add(conn);
  }
}
