/** Which resting orders leave the book when a smart wallet holds less than it committed (coverage.ts). */
import { describe, expect, it } from 'vitest';
import { uncoveredOrders, type CommittedOrder, type WalletCover } from '../../../src/domain/orderbook/index.js';

const U = 1_000_000n;
const bid = (id: string, committed: bigint, marketId = 'm1'): CommittedOrder => ({ id, marketId, side: 'buy', outcome: 'yes', committed });
const ask = (id: string, committed: bigint, marketId = 'm1', outcome: 'yes' | 'no' = 'yes'): CommittedOrder => ({
  id,
  marketId,
  side: 'sell',
  outcome,
  committed,
});
const wallet = (w: Partial<WalletCover>): WalletCover => ({
  usdc: 0n,
  committedUsdc: 0n,
  tokens: new Map(),
  committedTokens: new Map(),
  ...w,
});
const ids = (orders: CommittedOrder[]) => orders.map((o) => o.id);

describe('uncoveredOrders', () => {
  it('cancels bids newest first until the USDC shortfall is covered (the header example)', () => {
    // 40 held, A 20 + B 30 + C 25 = 75 committed → shortfall 35: C (25) leaves 10, B (30) covers it; A stays.
    const newestFirst = [bid('C', 25n * U), bid('B', 30n * U), bid('A', 20n * U)];
    expect(ids(uncoveredOrders(wallet({ usdc: 40n * U, committedUsdc: 75n * U }), newestFirst))).toEqual(['C', 'B']);
  });

  it('counts across markets in one newest-first order', () => {
    // 10 held, 9 + 6 committed in two markets → shortfall 5: the newest (m2's 6) alone covers it.
    const newestFirst = [bid('m2-new', 6n * U, 'm2'), bid('m1-old', 9n * U, 'm1')];
    expect(ids(uncoveredOrders(wallet({ usdc: 10n * U, committedUsdc: 15n * U }), newestFirst))).toEqual(['m2-new']);
  });

  it('cancels every bid when unsettled fills alone exceed the balance, and never a sell for USDC', () => {
    // 0 held; bids 30 + 60 and a fill holding 5 → shortfall 95: both bids go, 5 stay uncovered (the fill's settlement decides).
    const newestFirst = [bid('B', 60n * U), ask('S', 10n * U), bid('A', 30n * U)];
    expect(ids(uncoveredOrders(wallet({ usdc: 0n, committedUsdc: 95n * U }), newestFirst))).toEqual(['B', 'A']);
  });

  it('cancels nothing when the wallet covers exactly what it committed', () => {
    expect(
      uncoveredOrders(
        wallet({ usdc: 90n * U, committedUsdc: 90n * U, tokens: new Map([['m1:yes', 5n]]), committedTokens: new Map([['m1:yes', 5n]]) }),
        [bid('A', 90n * U), ask('S', 5n)],
      ),
    ).toEqual([]);
  });

  it('cancels sells of the market and outcome whose tokens fell short, newest first, and no other', () => {
    // m1 YES: 4 held, asks 3 (old) + 5 (new) → shortfall 4: the new ask (5) covers it. m1 NO is covered: its ask stays.
    const newestFirst = [ask('yes-new', 5n * U), ask('no', 2n * U, 'm1', 'no'), ask('yes-old', 3n * U), bid('A', 1n * U)];
    const w = wallet({
      usdc: 1n * U,
      committedUsdc: 1n * U,
      tokens: new Map([
        ['m1:yes', 4n * U],
        ['m1:no', 2n * U],
      ]),
      committedTokens: new Map([
        ['m1:yes', 8n * U],
        ['m1:no', 2n * U],
      ]),
    });
    expect(ids(uncoveredOrders(w, newestFirst))).toEqual(['yes-new']);
  });
});
