/**
 * The market channel's sequencing on one API node: every subscriber gets a `book` snapshot, then
 * exactly the events after it, in order, without gaps or repeats.
 *
 * Events reach the node through one Redis subscription, stamped with their market's sequence
 * number `seq`; books are read from Redis at a sequence number (see the socket adapter's book
 * reader). A read is requested when a connection subscribes, and events arriving while it is in
 * flight are buffered. The buffer starts before the read executes, so every event after the book
 * is either buffered or still to come: a new subscriber gets the book (seq C) and then the
 * buffered events after C; events up to C are already in the book and are skipped. Concurrent
 * subscribers of one market share one read.
 *
 * Each subscriber keeps the last seq it was sent. An event one past it is delivered, an older one
 * skipped, a newer one means this node missed events (its Redis subscription dropped): the
 * subscriber is resynced with a fresh book, so clients see a gap only when they lose frames
 * themselves. Pure: the hub owns the sockets and the I/O answers `readBook` requests.
 */
import type { WireFrame } from './ws-connection.js';

export interface SequencedFrame {
  seq: number;
  /** The event as sent to clients (JSON text, or its bytes). */
  frame: WireFrame;
  /** A deep book's further frames (`book_levels`, same seq), sent right after `frame` (ws/book-frame.ts). */
  more?: WireFrame[];
}

export interface FeedOutput<C> {
  send(conn: C, frame: WireFrame): void;
  /** Read the market's book; answer with `bookArrived`/`bookFailed` and the same ticket. */
  readBook(marketId: string, ticket: number): void;
  /** A subscription whose book could not be read was dropped (the hub tells the client). */
  failed(conn: C, marketId: string, message: string): void;
}

interface Subscriber {
  /** The last seq this subscriber was sent; null while it waits for a book. */
  afterSeq: number | null;
}

interface Feed<C> {
  subs: Map<C, Subscriber>;
  /** The read in flight, if any. */
  ticket: number | null;
  /** Events received since that read was requested. */
  buffer: SequencedFrame[];
}

export class MarketFeeds<C> {
  private readonly feeds = new Map<string, Feed<C>>();
  private tickets = 0;

  constructor(
    private readonly out: FeedOutput<C>,
    /** Events buffered during one read before the read is restarted (bounds memory on a flood). */
    private readonly maxBuffered = 10_000,
  ) {}

  /** Subscribes, or re-subscribes (a fresh book): the connection waits for the next book read. */
  add(conn: C, marketId: string): void {
    let feed = this.feeds.get(marketId);
    if (!feed) {
      feed = { subs: new Map(), ticket: null, buffer: [] };
      this.feeds.set(marketId, feed);
    }
    feed.subs.set(conn, { afterSeq: null });
    this.read(marketId, feed);
  }

  remove(conn: C, marketId: string): void {
    const feed = this.feeds.get(marketId);
    if (!feed) return;
    feed.subs.delete(conn);
    if (feed.subs.size === 0) this.feeds.delete(marketId); // a read still in flight is ignored on arrival
  }

  has(marketId: string): boolean {
    return this.feeds.has(marketId);
  }

  /** Events of one market from the bus, in seq order. */
  events(marketId: string, events: readonly SequencedFrame[]): void {
    const feed = this.feeds.get(marketId);
    if (!feed) return;
    if (feed.ticket !== null) {
      feed.buffer.push(...events);
      if (feed.buffer.length > this.maxBuffered) this.read(marketId, feed, true);
    }
    for (const [conn, sub] of feed.subs) {
      if (sub.afterSeq !== null) this.deliver(marketId, feed, conn, sub, events);
    }
  }

  bookArrived(marketId: string, ticket: number, book: SequencedFrame): void {
    const feed = this.feeds.get(marketId);
    if (!feed || feed.ticket !== ticket) return; // superseded, or nobody left to tell
    const buffered = feed.buffer;
    feed.ticket = null;
    feed.buffer = [];
    for (const [conn, sub] of feed.subs) {
      if (sub.afterSeq !== null) continue;
      sub.afterSeq = book.seq;
      this.out.send(conn, book.frame);
      for (const part of book.more ?? []) this.out.send(conn, part);
      this.deliver(marketId, feed, conn, sub, buffered);
    }
  }

  bookFailed(marketId: string, ticket: number, message: string): void {
    const feed = this.feeds.get(marketId);
    if (!feed || feed.ticket !== ticket) return;
    feed.ticket = null;
    feed.buffer = [];
    const waiting = [...feed.subs].filter(([, sub]) => sub.afterSeq === null).map(([conn]) => conn);
    for (const conn of waiting) feed.subs.delete(conn);
    if (feed.subs.size === 0) this.feeds.delete(marketId);
    for (const conn of waiting) this.out.failed(conn, marketId, message);
  }

  /** Every subscriber of every market gets a fresh book (this node may have missed events). */
  resyncAll(): void {
    for (const [marketId, feed] of this.feeds) {
      for (const sub of feed.subs.values()) sub.afterSeq = null;
      this.read(marketId, feed, true);
    }
  }

  stats(): { markets: number; subscriptions: number; reading: number; buffered: number } {
    let subscriptions = 0;
    let reading = 0;
    let buffered = 0;
    for (const feed of this.feeds.values()) {
      subscriptions += feed.subs.size;
      if (feed.ticket !== null) reading++;
      buffered += feed.buffer.length;
    }
    return { markets: this.feeds.size, subscriptions, reading, buffered };
  }

  private deliver(marketId: string, feed: Feed<C>, conn: C, sub: Subscriber, events: readonly SequencedFrame[]): void {
    for (const e of events) {
      if (sub.afterSeq === null) return; // resynced meanwhile
      if (e.seq <= sub.afterSeq) continue;
      if (e.seq > sub.afterSeq + 1) {
        sub.afterSeq = null;
        this.read(marketId, feed);
        return;
      }
      sub.afterSeq = e.seq;
      this.out.send(conn, e.frame);
    }
  }

  /** Requests a book read, or joins the one in flight (`restart`: a new one, the old answer ignored). */
  private read(marketId: string, feed: Feed<C>, restart = false): void {
    if (feed.ticket !== null && !restart) return;
    feed.ticket = ++this.tickets;
    feed.buffer = [];
    this.out.readBook(marketId, feed.ticket);
  }
}
