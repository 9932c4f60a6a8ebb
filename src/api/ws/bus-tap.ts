/**
 * The WebSocket hub's I/O toward Redis: ONE subscriber connection per API node receives both
 * event channels of the orderbook's bus and hands them to the hub, and book reads (the stored book's
 * head, levels and sequence counter in one script, then the market's status) answer the hub's
 * requests. A re-established subscription tells the hub, which resyncs its clients.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { FamilyCContext } from '../../services/family-c/context.js';
import type { ClobEventBus } from '../../services/family-c/events/event-bus.js';
import { findClobMarket } from '../../services/family-c/market-catalog.service.js';
import { bookFrame } from '../../services/family-c/ws/book-frame.js';
import type { WsHub } from '../../services/family-c/ws/ws-hub.js';

export interface BusTapDeps {
  ctx: Pick<FamilyCContext, 'db'>;
  bus: ClobEventBus;
  /** Dedicated to SUBSCRIBE (a subscribed connection can run nothing else). */
  subscriber: Redis;
  /** For book reads; a read that takes longer than `readTimeoutMs` fails (the client gets an error, not silence). */
  reader: Redis;
  readTimeoutMs?: number;
  log: Logger;
}

export class BusTap {
  private hub?: WsHub;
  private everReady = false;

  constructor(private readonly deps: BusTapDeps) {}

  async start(hub: WsHub): Promise<void> {
    this.hub = hub;
    const { subscriber, bus } = this.deps;
    // The raw bytes, decoded only when the hub can use them: with no 'message' listener ioredis
    // skips its own decoding, and a node without user-channel subscribers (the hub drops those
    // messages unread) no longer turns each batch's user events, about 2 kB per order, into a string
    // (issue 31: 3.5 % of the API + matcher process placing batches of 20 on PostgreSQL).
    subscriber.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      const name = channel.toString();
      if (name === bus.marketChannel) hub.marketMessage(message.toString());
      else if (name === bus.userChannel && hub.owners.size > 0) hub.userMessage(message.toString());
    });
    subscriber.on('ready', () => {
      if (!this.everReady) return;
      // ioredis resubscribes by itself; wait for that to be acknowledged before reading fresh books.
      subscriber.subscribe(bus.marketChannel, bus.userChannel).then(
        () => {
          this.deps.log.warn('event bus subscription re-established; resyncing WebSocket clients');
          hub.busReconnected();
        },
        (err: Error) => this.deps.log.warn({ err }, 'could not resubscribe to the event bus'),
      );
    });
    await subscriber.subscribe(bus.marketChannel, bus.userChannel);
    this.everReady = true;
  }

  readBook(marketId: string, ticket: number): void {
    const hub = this.hub!;
    const { reader, bus, ctx } = this.deps;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('book read timed out')), this.deps.readTimeoutMs ?? 5_000);
    });
    Promise.race([bus.readBook(marketId, reader), timeout])
      .finally(() => clearTimeout(timer))
      .then(async (stored) => {
        // The status is read after the book: a resolution published before the read is in it.
        const status = (await findClobMarket(ctx, marketId))?.status ?? null;
        hub.bookArrived(marketId, ticket, bookFrame(marketId, stored, status, Date.now()));
      })
      .catch((err: Error) => {
        this.deps.log.warn({ err, market: marketId }, 'could not read a book for a WebSocket subscriber');
        hub.bookFailed(marketId, ticket, `The book of ${marketId} could not be read; subscribe again`);
      });
  }

  async stop(): Promise<void> {
    await this.deps.subscriber.unsubscribe().catch(() => undefined);
  }
}
