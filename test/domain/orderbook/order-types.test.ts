import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { MAX_ORDER_QUANTITY, OrderBook, type RestingOrder } from '../../../src/domain/orderbook/index.js';
import { newBook, order } from './helpers.js';

describe('time in force and order types', () => {
  it('ioc fills what it can and cancels the rest; gtc rests it as partially_filled', () => {
    const book = newBook();
    book.place(order({ owner: 'm', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1_000_000n }));
    const ioc = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 3_000_000n, timeInForce: 'ioc' }));
    expect(ioc.order).toMatchObject({
      status: 'cancelled',
      filled: 1_000_000n,
      remaining: 2_000_000n,
      resting: false,
      committedAmount: 0n,
    });
    book.place(order({ owner: 'm', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1_000_000n }));
    const gtc = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 3_000_000n }));
    // the remainder 2,000,000 rests and commits ceil(2,000,000 × 6000 / 10000) = 1,200,000
    expect(gtc.order).toMatchObject({ status: 'partially_filled', remaining: 2_000_000n, resting: true, committedAmount: 1_200_000n });
    expect(book.commitments.usdc('t')).toBe(1_200_000n);
  });

  it('fok fills completely or changes nothing (own orders, which it would not fill, do not count)', () => {
    const book = newBook();
    const mine = book.place(order({ owner: 't', side: 'sell', outcome: 'yes', priceBps: 5900, quantity: 5_000_000n }));
    book.place(order({ owner: 'm', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1_000_000n }));
    book.place(order({ owner: 'n', side: 'buy', outcome: 'no', priceBps: 4000, quantity: 1_000_000n })); // YES 6000
    const before = book.snapshot();
    const refused = book.place(
      order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 2_000_001n, timeInForce: 'fok' }),
    );
    expect(refused).toMatchObject({ order: { status: 'cancelled', filled: 0n }, fills: [], cancelled: [], levels: [] });
    expect({ ...book.snapshot(), nextSeq: 0 }).toEqual({ ...before, nextSeq: 0 });
    const done = book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 2_000_000n, timeInForce: 'fok' }));
    expect(done.order.status).toBe('filled');
    expect(done.cancelled.map((c) => [c.order.id, c.reason])).toEqual([[mine.order.id, 'self_trade']]);
  });

  it('a market order is ioc with its price as the worst-price cap, up to 10000', () => {
    const book = newBook();
    book.place(order({ owner: 'm', side: 'sell', outcome: 'no', priceBps: 9000, quantity: 1_000_000n }));
    book.place(order({ owner: 'm', side: 'sell', outcome: 'no', priceBps: 9500, quantity: 1_000_000n }));
    // Asked to rest (gtc), a market order is refused rather than silently stored as ioc.
    expect(() =>
      book.place(order({ owner: 't', side: 'buy', outcome: 'no', priceBps: 9200, quantity: 1n, orderType: 'market', timeInForce: 'gtc' })),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ORDER' }));
    const capped = book.place(
      order({ owner: 't', side: 'buy', outcome: 'no', priceBps: 9200, quantity: 2_000_000n, orderType: 'market', timeInForce: 'ioc' }),
    );
    expect(capped.order).toMatchObject({ status: 'cancelled', filled: 1_000_000n, resting: false });
    const sweep = book.place(
      order({ owner: 't', side: 'buy', outcome: 'no', priceBps: 10_000, quantity: 5_000_000n, orderType: 'market' }),
    );
    expect(sweep.fills.map((f) => f.priceBps)).toEqual([9500]);
    expect(sweep.order.status).toBe('cancelled');
  });

  it('a market order asked fok fills all of it within its cap or nothing (never downgraded to ioc)', () => {
    const book = newBook();
    book.place(order({ owner: 'm', side: 'sell', outcome: 'no', priceBps: 9000, quantity: 1_000_000n }));
    book.place(order({ owner: 'm', side: 'sell', outcome: 'no', priceBps: 9500, quantity: 1_000_000n }));
    const before = book.snapshot();
    // 2 tokens within a 9200 cap: only 1 there, so nothing trades (ioc would have taken the 1).
    const refused = book.place(
      order({ owner: 't', side: 'buy', outcome: 'no', priceBps: 9200, quantity: 2_000_000n, orderType: 'market', timeInForce: 'fok' }),
    );
    expect(refused).toMatchObject({ order: { status: 'cancelled', filled: 0n, resting: false }, fills: [] });
    expect({ ...book.snapshot(), nextSeq: 0 }).toEqual({ ...before, nextSeq: 0 });
    const done = book.place(
      order({ owner: 't', side: 'buy', outcome: 'no', priceBps: 9500, quantity: 2_000_000n, orderType: 'market', timeInForce: 'fok' }),
    );
    expect(done.fills.map((f) => f.priceBps)).toEqual([9000, 9500]);
    expect(done.order.status).toBe('filled');
  });

  it('refuses bad prices and quantities with INVALID_ORDER and a repeated id with DUPLICATE_ORDER', () => {
    const book = newBook();
    const bad = [{ priceBps: 10_000 }, { priceBps: 0 }, { priceBps: 1.5 }, { quantity: 0n }, { quantity: 1n << 64n }];
    for (const fields of bad) {
      expect(() => book.place(order({ owner: 'a', side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1n, ...fields }))).toThrow(
        DomainError,
      );
    }
    expect(() =>
      book.place(order({ owner: 'a', side: 'buy', outcome: 'yes', priceBps: 10_001, quantity: 1n, orderType: 'market' })),
    ).toThrow(/1\.\.10000/);
    book.place(order({ id: 'same', owner: 'a', side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1n }));
    expect(() => book.place(order({ id: 'same', owner: 'a', side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 1n }))).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_ORDER' }),
    );
  });
});

describe('postOnly', () => {
  it('rests when it would not take and is refused with WOULD_TAKE (nothing changes) when it would, complementary included', () => {
    const book = newBook();
    book.place(order({ owner: 'm', side: 'buy', outcome: 'no', priceBps: 4000, quantity: 1_000_000n })); // YES ask-side 6000
    expect(book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 5999, quantity: 1n, postOnly: true })).order.status).toBe(
      'open',
    );
    const before = book.snapshot();
    let error: unknown;
    try {
      book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 1n, postOnly: true }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'WOULD_TAKE', kind: 'invalid' });
    expect(book.snapshot()).toEqual(before);
    expect(() =>
      book.place(order({ owner: 't', side: 'buy', outcome: 'yes', priceBps: 100, quantity: 1n, postOnly: true, timeInForce: 'ioc' })),
    ).toThrow(/postOnly/);
  });
});

describe('self-trade prevention', () => {
  it("cancels the owner's resting order and fills the taker against the next one", () => {
    const book = newBook();
    const own = book.place(order({ owner: 'x', side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 1_000_000n }));
    const other = book.place(order({ owner: 'y', side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 1_000_000n }));
    expect(book.commitments.tokens('x', 'm1', 'yes')).toBe(1_000_000n);
    const r = book.place(order({ owner: 'x', side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1_000_000n }));
    expect(r.cancelled).toEqual([{ order: expect.objectContaining({ id: own.order.id, remaining: 1_000_000n }), reason: 'self_trade' }]);
    expect(r.fills.map((f) => f.makerOrderId)).toEqual([other.order.id]);
    expect(book.get(own.order.id)).toBeUndefined();
    expect(book.commitments.tokens('x', 'm1', 'yes')).toBe(0n);
    expect(r.levels).toEqual([{ outcome: 'yes', side: 'sell', priceBps: 5000, size: 0n }]);
  });
});

describe('cancel, expire, cancel-all and market data', () => {
  it('cancel releases the commitment and reports the level; expire and cancelOwner sweep', () => {
    const book = newBook();
    const a = book.place(order({ owner: 'a', side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 3_000_000n, expiry: 100 }));
    book.place(order({ owner: 'a', side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 1_000_000n, expiry: 300 }));
    book.place(order({ owner: 'b', side: 'sell', outcome: 'no', priceBps: 7000, quantity: 2_000_000n, expiry: 200 }));
    expect(book.commitments.usdc('a')).toBe(1_600_000n); // 1,200,000 + 400,000
    expect(book.cancel(a.order.id)).toEqual({
      order: expect.objectContaining({ id: a.order.id, remaining: 3_000_000n }),
      reason: 'user',
      level: { outcome: 'yes', side: 'buy', priceBps: 4000, size: 1_000_000n },
    });
    expect(book.cancel(a.order.id)).toBeNull();
    expect(book.commitments.usdc('a')).toBe(400_000n);
    const expired = book.expire(200);
    expect(expired.cancelled.map((c) => [c.order.owner, c.reason])).toEqual([['b', 'expired']]);
    expect(book.commitments.entries()).toEqual(new Map([['a', { usdc: 400_000n, tokens: new Map() }]]));
    expect(book.cancelOwner('a').cancelled).toHaveLength(1);
    expect(book.commitments.entries().size).toBe(0);
  });

  it('depth aggregates levels per outcome best first; top gives best bid/ask', () => {
    const book = newBook();
    for (const [side, outcome, priceBps, quantity] of [
      ['buy', 'yes', 4000, 1n],
      ['buy', 'yes', 4000, 2n],
      ['buy', 'yes', 3900, 5n],
      ['buy', 'yes', 100, 7n],
      ['sell', 'yes', 4500, 3n],
      ['sell', 'yes', 9999, 4n],
      ['sell', 'no', 6100, 6n],
    ] as const) {
      book.place(order({ owner: `o${priceBps}`, side, outcome, priceBps, quantity }));
    }
    expect(book.depth(2)).toEqual({
      yes: {
        bids: [
          { priceBps: 4000, size: 3n, orders: 2 },
          { priceBps: 3900, size: 5n, orders: 1 },
        ],
        asks: [
          { priceBps: 4500, size: 3n, orders: 1 },
          { priceBps: 9999, size: 4n, orders: 1 },
        ],
      },
      no: { bids: [], asks: [{ priceBps: 6100, size: 6n, orders: 1 }] },
    });
    expect(book.top()).toMatchObject({ bestBid: { yes: 4000, no: null }, bestAsk: { yes: 4500, no: 6100 } });
  });
});

describe('restore', () => {
  it('refuses rows the book could not hold exactly: above the quantity cap, remaining past quantity', () => {
    const row = (quantity: bigint, remaining: bigint): RestingOrder => ({
      id: 'r1',
      owner: 'a',
      side: 'buy',
      outcome: 'yes',
      priceBps: 5000,
      quantity,
      remaining,
      expiry: 0,
      postOnly: false,
      seq: 1,
      notional: 0n,
      usdc: 0n,
    });
    expect(OrderBook.restore({ marketId: 'm' }, { orders: [row(MAX_ORDER_QUANTITY, MAX_ORDER_QUANTITY)] }).commitments.usdc('a')).toBe(
      MAX_ORDER_QUANTITY / 2n,
    );
    expect(() => OrderBook.restore({ marketId: 'm' }, { orders: [row(MAX_ORDER_QUANTITY + 1n, 1n)] })).toThrow(/above the cap/);
    expect(() => OrderBook.restore({ marketId: 'm' }, { orders: [row(5n, 6n)] })).toThrow(/remaining/);
  });

  it('reports an empty level as size 0 on an empty book, outside the tick range too', () => {
    const book = OrderBook.restore({ marketId: 'm' }, { orders: [] });
    expect(book.levelOf('yes', 'buy', 5000).size).toBe(0n);
    expect(book.ladders.no.sell.sizeAt(-1)).toBe(0n);
    expect(book.ladders.no.sell.sizeAt(10_001)).toBe(0n);
  });
});
