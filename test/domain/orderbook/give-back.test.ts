/**
 * A failed fill's quantity given back to the innocent party's resting order (book.giveBack):
 * the order's remaining grows back, the fill leaves its cumulative rounding state, its place in
 * the queue is kept, and its commitment grows by exactly what it now rests for.
 */
import { describe, expect, it } from 'vitest';
import { newBook, order } from './helpers.js';

describe('give-back', () => {
  it('restores a partly filled buy as if the fill had not happened (worked example)', () => {
    const book = newBook();
    const bid = book.place(order({ owner: 'b', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10_000_000n }));
    const later = book.place(order({ owner: 'c', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 1_000_000n }));
    // A seller takes 3.333333 YES at 6000: the bid pays ceil(3_333_333 × 6000 / 10000) = 2_000_000.
    const take = book.place(order({ owner: 's', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 3_333_333n, timeInForce: 'ioc' }));
    const fill = take.fills[0]!;
    expect(fill).toMatchObject({ makerOrderId: bid.order.id, quantity: 3_333_333n, makerUsdc: 2_000_000n });
    expect(book.get(bid.order.id)).toMatchObject({ remaining: 6_666_667n, notional: 3_333_333n * 6000n, usdc: 2_000_000n });
    // Its commitment: ceil(6_666_667 × 6000 / 10000) = 4_000_001 (4_000_000.2 rounded up).
    expect(book.commitments.usdc('b')).toBe(4_000_001n);

    // The seller could not deliver: the 3.333333 come back, with the fill's notional and leg.
    const back = book.giveBack(bid.order.id, fill.quantity, fill.quantity * 6000n, fill.makerUsdc)!;
    expect(back.order).toMatchObject({ remaining: 10_000_000n, notional: 0n, usdc: 0n });
    // ceil(10_000_000 × 6000 / 10000) = 6_000_000: 1_999_999 more than before.
    expect(back.commitment).toBe(1_999_999n);
    expect(book.commitments.usdc('b')).toBe(6_000_000n);
    expect(back.level).toEqual({ outcome: 'yes', side: 'buy', priceBps: 6000, size: 11_000_000n });
    expect(book.depth(1).yes.bids).toEqual([{ priceBps: 6000, size: 11_000_000n, orders: 2 }]);

    // Still first in its level's queue: the next seller fills it before the later bid.
    const next = book.place(order({ owner: 's', side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1_000_000n, timeInForce: 'ioc' }));
    expect(next.fills.map((f) => f.makerOrderId)).toEqual([bid.order.id]);
    expect(book.get(later.order.id)?.remaining).toBe(1_000_000n);
  });

  it('finds the earliest expiry among resting orders without sorting them', () => {
    const book = newBook();
    expect(book.earliestExpiry()).toBe(Infinity);
    for (const expiry of [2_000_000_300, 2_000_000_100, 2_000_000_200])
      book.place(order({ owner: 'b', side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 1_000_000n, expiry }));
    expect(book.earliestExpiry()).toBe(2_000_000_100);
  });

  it('gives a sell its tokens back and refuses more than the signed quantity or an order not resting', () => {
    const book = newBook();
    const ask = book.place(order({ owner: 's', side: 'sell', outcome: 'no', priceBps: 3000, quantity: 5_000_000n }));
    const take = book.place(order({ owner: 'b', side: 'buy', outcome: 'no', priceBps: 3000, quantity: 2_000_000n, timeInForce: 'ioc' }));
    const fill = take.fills[0]!;
    expect(book.commitments.tokens('s', 'm1', 'no')).toBe(3_000_000n);
    expect(() => book.giveBack(ask.order.id, 2_000_001n, 0n, 0n)).toThrow(RangeError);
    expect(() => book.giveBack(ask.order.id, 0n, 0n, 0n)).toThrow(RangeError);
    const back = book.giveBack(ask.order.id, fill.quantity, fill.quantity * 3000n, fill.makerUsdc)!;
    expect(back).toMatchObject({ commitment: 2_000_000n, order: { remaining: 5_000_000n, notional: 0n, usdc: 0n } });
    expect(book.commitments.tokens('s', 'm1', 'no')).toBe(5_000_000n);
    expect(book.giveBack('unknown', 1n, 0n, 0n)).toBeNull();
    book.cancel(ask.order.id);
    expect(book.giveBack(ask.order.id, 1n, 0n, 0n)).toBeNull();
  });
});
