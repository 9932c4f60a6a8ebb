/**
 * book.reinstate, the undo of a cancel (a replace whose new order was refused): the order goes
 * back to its place in its level's queue — first, middle or last — with its commitment.
 */
import { describe, expect, it } from 'vitest';
import { newBook, order } from './helpers.js';

describe('reinstate', () => {
  it.each([0, 1, 2])('puts order %i of three back at its place in the queue', (which) => {
    const book = newBook();
    const ids = ['a', 'b', 'c'].map(
      (owner) => book.place(order({ owner, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1_000_000n })).order.id,
    );
    const id = ids[which]!;
    const node = book.index.get(id)!;
    const owner = node.owner;
    const committed = book.commitments.usdc(owner);
    book.cancel(id);
    expect(book.commitments.usdc(owner)).toBe(0n);

    book.reinstate(node);
    expect(() => book.reinstate(node)).toThrow(/is on the book/);
    expect(book.commitments.usdc(owner)).toBe(committed);
    expect(book.depth(1).yes.bids).toEqual([{ priceBps: 5000, size: 3_000_000n, orders: 3 }]);
    // Sellers meet the bids in their arrival order.
    const take = book.place(order({ owner: 's', side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 3_000_000n, timeInForce: 'ioc' }));
    expect(take.fills.map((f) => f.makerOrderId)).toEqual(ids);
  });
});
