/**
 * A stand-in for the daemon's market channel on a real `ws` server, for what the real daemon
 * cannot be made to do on demand: lose a frame, drop a connection, stay silent, refuse a
 * market. It follows docs/websockets.md: `subscribe` → `subscribed` then one `book` per market,
 * `PING` → `PONG`, events with a per-market `seq`.
 */
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';

export interface StandInConnection {
  socket: WebSocket;
  received: string[];
  subscribed: Set<string>;
}

interface Market {
  seq: number;
  levels: Map<string, string>; // `${outcome}:${side}:${price}` → size
}

export class StandIn {
  readonly connections: StandInConnection[] = [];
  readonly markets = new Map<string, Market>();
  /** Answer PING with PONG (off: a server that went silent). */
  answerPing = true;
  /** Answer subscribe commands (off: a server that hangs). */
  answerSubscribe = true;
  /** Split books into parts of this many levels (0: one frame). */
  levelsPerPart = 0;
  /** Markets whose book read fails (BOOK_UNAVAILABLE) this many more times. */
  readonly unavailable = new Map<string, number>();
  private waiters: Array<() => void> = [];

  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket) => {
      const conn: StandInConnection = { socket, received: [], subscribed: new Set() };
      this.connections.push(conn);
      socket.on('message', (data) => {
        const text = data.toString();
        conn.received.push(text);
        this.receive(conn, text);
        this.wake();
      });
      this.wake();
    });
  }

  static async start(): Promise<StandIn> {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    return new StandIn(server);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  market(id: string): Market {
    let market = this.markets.get(id);
    if (!market) this.markets.set(id, (market = { seq: 0, levels: new Map() }));
    return market;
  }

  /** Changes a level and publishes its price_change to subscribers, except to `drop` connections. */
  priceChange(marketId: string, outcome: 'yes' | 'no', side: 'buy' | 'sell', price: number, size: string, drop: StandInConnection[] = []) {
    const market = this.market(marketId);
    const key = `${outcome}:${side}:${price}`;
    if (size === '0') market.levels.delete(key);
    else market.levels.set(key, size);
    const frame = { event: 'price_change', seq: ++market.seq, marketId, outcome, side, price, size, timestamp: Date.now() };
    for (const conn of this.connections) {
      if (conn.subscribed.has(marketId) && !drop.includes(conn)) conn.socket.send(JSON.stringify(frame));
    }
  }

  /** The book frames of a market now (one, or a `book` with `parts` and `book_levels`). */
  bookFrames(marketId: string): string[] {
    const market = this.market(marketId);
    const levels = [...market.levels.entries()].map(([key, size]) => {
      const [outcome, side, price] = key.split(':') as ['yes' | 'no', 'buy' | 'sell', string];
      return { outcome, side, price: Number(price), size };
    });
    const per = this.levelsPerPart || Math.max(1, levels.length);
    const chunks: (typeof levels)[] = [];
    for (let i = 0; i < levels.length; i += per) chunks.push(levels.slice(i, i + per));
    if (chunks.length === 0) chunks.push([]);
    const sides = (chunk: typeof levels) => {
      const pick = (o: string, s: string) =>
        chunk.filter((l) => l.outcome === o && l.side === s).map(({ price, size }) => ({ price, size }));
      return { yes: { bids: pick('yes', 'buy'), asks: pick('yes', 'sell') }, no: { bids: pick('no', 'buy'), asks: pick('no', 'sell') } };
    };
    const prices = { yes: null, no: null };
    const parts = chunks.length > 1 ? { parts: chunks.length } : {};
    const head = { event: 'book', seq: market.seq, status: 'active', marketId, ...parts, ...sides(chunks[0]!) };
    return [
      JSON.stringify({ ...head, bestBid: prices, bestAsk: prices, lastPrice: prices, timestamp: Date.now() }),
      ...chunks
        .slice(1)
        .map((chunk, i) =>
          JSON.stringify({ event: 'book_levels', seq: market.seq, marketId, part: i + 2, parts: chunks.length, ...sides(chunk) }),
        ),
    ];
  }

  /** Waits until `test` holds, checked after every connection and every frame received. */
  async until<T>(what: string, test: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = test();
      if (value !== undefined && value !== false) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`stand-in: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Subscribe commands received on a connection, as market lists. */
  subscribes(conn: StandInConnection): string[][] {
    return conn.received
      .filter((t) => t.startsWith('{'))
      .map((t) => JSON.parse(t) as { type: string; markets: string[] })
      .filter((c) => c.type === 'subscribe')
      .map((c) => c.markets);
  }

  async stop(): Promise<void> {
    for (const conn of this.connections) conn.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(conn: StandInConnection, text: string): void {
    if (text === 'PING') {
      if (this.answerPing) conn.socket.send('PONG');
      return;
    }
    if (text === 'PONG') return;
    const command = JSON.parse(text) as { type: string; markets: string[]; pubkey?: string };
    if (!this.answerSubscribe) return;
    if (command.pubkey !== undefined) {
      // The user channel: acknowledge; the test sends the pubkey's events itself.
      conn.subscribed.add(command.pubkey);
      conn.socket.send(JSON.stringify({ event: `${command.type}d`, pubkey: command.pubkey, markets: command.markets ?? ['*'] }));
      return;
    }
    if (command.type === 'unsubscribe') {
      for (const m of command.markets) conn.subscribed.delete(m);
      conn.socket.send(JSON.stringify({ event: 'unsubscribed', markets: command.markets }));
      return;
    }
    const unknown = command.markets.filter((m) => m.startsWith('unknown'));
    if (unknown.length > 0) {
      conn.socket.send(JSON.stringify({ event: 'error', code: 'UNKNOWN_MARKET', message: 'no such market', markets: unknown }));
      return;
    }
    conn.socket.send(JSON.stringify({ event: 'subscribed', markets: command.markets }));
    for (const m of command.markets) {
      const failures = this.unavailable.get(m) ?? 0;
      if (failures > 0) {
        this.unavailable.set(m, failures - 1);
        conn.subscribed.delete(m);
        conn.socket.send(JSON.stringify({ event: 'error', code: 'BOOK_UNAVAILABLE', message: 'book read failed', marketId: m }));
        continue;
      }
      conn.subscribed.add(m);
      for (const frame of this.bookFrames(m)) conn.socket.send(frame);
    }
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
