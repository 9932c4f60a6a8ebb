/**
 * Frames on their way to sockets, sent in time slices. One book update to 1,000 subscribers is
 * 1,000 socket writes per event (about 15 µs each here): sent in one go it would hold the event
 * loop for tens of milliseconds, and HTTP requests and Redis replies would wait behind it. The
 * outbox queues frames per connection and sends them for at most `sliceMs` at a time, yielding
 * between slices. Each connection's frames leave in the order they were queued, whatever arrives
 * meanwhile, so the market channel's sequence stays intact.
 */
import type { WireFrame } from './ws-connection.js';

interface Queue {
  frames: WireFrame[];
  head: number;
}

export class Outbox<C> {
  private readonly queues = new Map<C, Queue>();
  private scheduled = false;

  constructor(
    /** Sends one frame; false when the connection was dropped instead (its queue is gone). */
    private readonly send: (conn: C, frame: WireFrame) => boolean,
    private readonly defer: (drain: () => void) => void,
    private readonly sliceMs = 4,
    /** Brackets the frames sent to one connection in a slice (the adapter corks the TCP socket: one write for all). */
    private readonly batch: { start(conn: C): void; end(conn: C): void } = { start: () => undefined, end: () => undefined },
  ) {}

  /** Queues a frame; returns how many frames the connection has waiting. */
  push(conn: C, frame: WireFrame): number {
    let q = this.queues.get(conn);
    if (!q) this.queues.set(conn, (q = { frames: [], head: 0 }));
    q.frames.push(frame);
    if (!this.scheduled) {
      this.scheduled = true;
      this.defer(() => this.drain());
    }
    return q.frames.length - q.head;
  }

  drop(conn: C): void {
    this.queues.delete(conn);
  }

  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.frames.length - q.head;
    return n;
  }

  private drain(): void {
    this.scheduled = false;
    const started = performance.now();
    for (const [conn, q] of this.queues) {
      this.batch.start(conn);
      try {
        while (q.head < q.frames.length) {
          if (performance.now() - started > this.sliceMs) return this.yield(q);
          const frame = q.frames[q.head]!;
          q.head++;
          if (!this.send(conn, frame)) break;
        }
      } finally {
        this.batch.end(conn);
      }
      this.queues.delete(conn);
    }
  }

  private yield(q: Queue): void {
    if (q.head > 1_024) {
      q.frames = q.frames.slice(q.head); // do not keep what was sent alive under sustained load
      q.head = 0;
    }
    this.scheduled = true;
    this.defer(() => this.drain());
  }
}
