/**
 * A WebSocket client as a trading bot writes one, on the `ws` package: it keeps every frame it
 * received (JSON parsed; `PONG` as text), waits for frames by predicate, and knows how its socket
 * closed. The replay book applies a `book` snapshot and the deltas after it, written from the
 * documented contract (docs/websockets.md) rather than from the server's code.
 */
import { WebSocket } from 'ws';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- frames are checked field by field in the tests
export type Frame = Record<string, any>;

export class WsClient {
  readonly frames: Array<Frame | string> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? `<binary ${(data as Buffer).length}>` : data.toString();
      let frame: Frame | string = text;
      try {
        frame = JSON.parse(text) as Frame;
      } catch {
        // PONG and other text stay strings
      }
      this.frames.push(frame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  static open(url: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const client = new WsClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** JSON frames received so far (acks, errors, events). */
  get events(): Frame[] {
    return this.frames.filter((f): f is Frame => typeof f === 'object');
  }

  /** The first frame from index `from` on that matches, waiting up to `timeoutMs` for it. */
  async waitFor(match: (frame: Frame | string) => boolean, timeoutMs = 5_000, from = 0): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found !== undefined) return found as Frame;
      if (this.socket.readyState === WebSocket.CLOSED)
        throw new Error(`socket closed before the frame arrived; got ${JSON.stringify(this.frames.slice(-5))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms; last frames: ${JSON.stringify(this.frames.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a command and waits for its answer (the next ack or error frame after it). */
  async command(message: unknown, timeoutMs = 5_000): Promise<Frame> {
    const from = this.frames.length;
    this.send(message);
    return this.waitFor((f) => typeof f === 'object' && ['subscribed', 'unsubscribed', 'error'].includes(f.event), timeoutMs, from);
  }

  close(): void {
    this.socket.close(1000);
  }
}

type Levels = Map<number, string>;

/** A client's copy of one market's book: snapshot, then deltas in seq order; a gap is reported. */
export class ReplayBook {
  seq = -1;
  gaps = 0;
  private levels: Record<string, Levels> = {};
  bestBid: unknown = null;
  bestAsk: unknown = null;

  /** Applies one market-channel frame of this market; false when its seq shows a gap (re-subscribe). */
  apply(frame: Frame): boolean {
    if (frame.event === 'book') {
      this.seq = frame.seq;
      this.levels = {};
      for (const outcome of ['yes', 'no']) {
        this.levels[`${outcome}:buy`] = new Map(frame[outcome].bids.map((l: { price: number; size: string }) => [l.price, l.size]));
        this.levels[`${outcome}:sell`] = new Map(frame[outcome].asks.map((l: { price: number; size: string }) => [l.price, l.size]));
      }
      this.bestBid = frame.bestBid;
      this.bestAsk = frame.bestAsk;
      return true;
    }
    if (frame.event === 'book_levels') {
      // The rest of a deep book, same seq as its `book` (docs/websockets.md): add its levels.
      if (frame.seq !== this.seq) return true; // of an older book
      for (const outcome of ['yes', 'no']) {
        for (const l of frame[outcome].bids as Array<{ price: number; size: string }>) this.levels[`${outcome}:buy`]!.set(l.price, l.size);
        for (const l of frame[outcome].asks as Array<{ price: number; size: string }>) this.levels[`${outcome}:sell`]!.set(l.price, l.size);
      }
      return true;
    }
    if (typeof frame.seq !== 'number') return true;
    if (frame.seq <= this.seq) return true; // already applied
    if (frame.seq !== this.seq + 1) {
      this.gaps++;
      return false;
    }
    this.seq = frame.seq;
    if (frame.event === 'price_change') {
      const side = this.levels[`${frame.outcome}:${frame.side}`]!;
      if (frame.size === '0') side.delete(frame.price);
      else side.set(frame.price, frame.size);
    } else if (frame.event === 'best_bid_ask') {
      this.bestBid = frame.bestBid;
      this.bestAsk = frame.bestAsk;
    }
    return true;
  }

  /** The book in the REST orderbook's shape (levels best first). */
  view() {
    const side = (key: string, descending: boolean) =>
      [...(this.levels[key] ?? new Map()).entries()]
        .sort(([a], [b]) => (descending ? b - a : a - b))
        .map(([price, size]) => ({ price, size }));
    return {
      yes: { bids: side('yes:buy', true), asks: side('yes:sell', false) },
      no: { bids: side('no:buy', true), asks: side('no:sell', false) },
      bestBid: this.bestBid,
      bestAsk: this.bestAsk,
    };
  }
}

export function wsUrl(httpUrl: string, channel: 'market' | 'user'): string {
  return `${httpUrl.replace(/^http/, 'ws')}/v2/ws/${channel}`;
}
