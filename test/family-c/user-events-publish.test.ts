/**
 * A matcher batch's user events ride in its last market publish (one Redis script per market,
 * no PUBLISH of their own), and still reach subscribers after every market event of the batch,
 * as their own PUBLISH after the markets' did; a batch that changed no book publishes them alone.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { OrderBook } from '../../src/domain/orderbook/index.js';
import { ClobEventBus } from '../../src/services/family-c/events/event-bus.js';
import { MatcherEventPublisher } from '../../src/services/family-c/events/matcher-events.publisher.js';
import type { OpOutcome, OwnedMarket } from '../../src/services/family-c/matcher/matcher-types.js';
import type { BatchViews } from '../../src/services/family-c/orders/batch-views.js';
import type { OrderView } from '../../src/services/family-c/orders/order.presenter.js';
import { publisherAndSubscriber, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('user-events-publish');
const conns = publisherAndSubscriber(prefix);

function owned(marketId: string): OwnedMarket {
  return { marketId, book: new OrderBook({ marketId }), epoch: 1n, status: 'active', yesMint: 'y', noMint: 'n', nextExpiry: Infinity };
}

/** An outcome whose order `id` (of `owner`) was cancelled, with the level deltas of placing a resting order of `book` (when given). */
function cancelled(market: OwnedMarket, id: string, owner: string, withLevels: boolean): OpOutcome {
  const levels = withLevels
    ? market.book.place({ id: `${id}-rest`, owner, side: 'buy', outcome: 'yes', priceBps: 4_000, quantity: 1_000_000n, expiry: 2e9 }).levels
    : [];
  return {
    kind: 'cancel',
    marketId: market.marketId,
    cancelled: [{ order: { id, owner } as never, reason: 'user' }],
    levels: [...levels],
  } as OpOutcome;
}

describe('user events of a matcher batch', () => {
  it('ride in the last market publish and arrive after every market event; alone when no book changed', async () => {
    const bus = new ClobEventBus(conns.redis, prefix, pino({ level: 'silent' }));
    const publisher = new MatcherEventPublisher(bus, pino({ level: 'silent' }));
    const [a, b] = [owned('m-a'), owned('m-b')];
    const books = new Map([a, b].map((m) => [m.marketId, m]));
    const received: Array<{ channel: string; message: Record<string, unknown> }> = [];
    conns.sub.on('message', (channel: string, message: string) => received.push({ channel, message: JSON.parse(message) }));
    await conns.sub.subscribe(bus.marketChannel, bus.userChannel);
    publisher.announce(a.marketId, a);
    publisher.announce(b.marketId, b);
    const views: BatchViews = {
      orders: new Map(['o1', 'o2', 'o3'].map((id) => [id, { id, status: 'cancelled' } as unknown as OrderView])),
      fills: new Map(),
    };
    const sent: string[] = [];
    const spy = conns.redis.publish.bind(conns.redis);
    conns.redis.publish = ((channel: string, message: string) => (sent.push(channel), spy(channel, message))) as typeof conns.redis.publish;

    publisher.committed([cancelled(a, 'o1', 'alice', true), cancelled(b, 'o2', 'bob', true)], books, views);
    await expect.poll(() => received.length, { timeout: 5_000 }).toBe(3);
    expect(received.map((r) => [r.channel, r.message.marketId])).toEqual([
      [bus.marketChannel, 'm-a'],
      [bus.marketChannel, 'm-b'],
      [bus.userChannel, undefined],
    ]);
    expect((received[2]!.message as unknown as Array<{ event: string; owner: string }>).map((e) => [e.event, e.owner])).toEqual([
      ['order:cancelled', 'alice'],
      ['order:cancelled', 'bob'],
    ]);
    expect(sent).toEqual([]); // no PUBLISH of their own

    publisher.committed([cancelled(a, 'o3', 'carol', false)], books, views);
    await expect.poll(() => received.length, { timeout: 5_000 }).toBe(4);
    expect(received[3]!.channel).toBe(bus.userChannel);
    expect(sent).toEqual([bus.userChannel]);
  });
});
