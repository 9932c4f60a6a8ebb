/** The batch ledger: later operations of one batch see what earlier ones committed, released and filled. */
import { describe, expect, it } from 'vitest';
import { BatchLedger, DEFAULT_FEES, emptyStart, OrderBook, type PlaceCheck } from '../../../src/domain/orderbook/index.js';

const M = 'market';
const start = (usdc: bigint, tokens: Record<string, bigint> = {}) => ({
  ...emptyStart(),
  usdcBalance: usdc,
  tokenBalance: new Map(Object.entries(tokens)),
});
const check = (owner: string, side: 'buy' | 'sell', priceBps: number, quantity: bigint, nonce: string): PlaceCheck => ({
  owner,
  marketId: M,
  side,
  outcome: 'yes',
  priceBps,
  quantity,
  nonce,
  canRest: true,
});

describe('BatchLedger', () => {
  it('worked example: 40 USDC free, two bids of 50 YES at 7000', () => {
    const ledger = new BatchLedger(DEFAULT_FEES, new Map([['a', start(40_000_000n)]]), new Set());
    const book = new OrderBook({ marketId: M });
    // Needs P + 1 + ceil((P + 1) × 25 / 10000), P = ceil(50e6 × 7000 / 10000) = 35_000_000 → 35_087_502 ≤ 40_000_000.
    const first = check('a', 'buy', 7000, 50_000_000n, '1');
    ledger.check(first);
    ledger.placed(
      first,
      book.place({ id: 'o1', owner: 'a', side: 'buy', outcome: 'yes', priceBps: 7000, quantity: 50_000_000n, expiry: 0 }),
    );
    // It rests and commits 35_000_000; 5_000_000 remain free.
    expect(() => ledger.check(check('a', 'buy', 7000, 50_000_000n, '2'))).toThrow(
      expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', extra: { available: '5000000', required: '35087502' } }),
    );
    expect(() => ledger.check(check('a', 'buy', 100, 1_000_000n, '1'))).toThrow(expect.objectContaining({ code: 'DUPLICATE_NONCE' }));
  });

  it("a fill moves the maker's commitment into a fill hold, and a cancel frees it", () => {
    const ledger = new BatchLedger(
      DEFAULT_FEES,
      new Map([
        ['a', start(10_000_000n)],
        ['b', start(0n, { 'market:yes': 10_000_000n })],
      ]),
      new Set(),
    );
    const book = new OrderBook({ marketId: M });
    const bid = check('a', 'buy', 5000, 10_000_000n, '1');
    ledger.check(bid);
    ledger.placed(
      bid,
      book.place({ id: 'bid', owner: 'a', side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 10_000_000n, expiry: 0 }),
    );
    // a: 5_000_000 committed → 5_000_000 free.
    expect(() => ledger.check(check('a', 'buy', 5000, 10_000_000n, '2'))).toThrow(
      expect.objectContaining({ extra: { available: '5000000', required: '5012502' } }),
    );
    const sell = check('b', 'sell', 5000, 4_000_000n, '1');
    ledger.check(sell);
    ledger.placed(
      sell,
      book.place({
        id: 's',
        owner: 'b',
        side: 'sell',
        outcome: 'yes',
        priceBps: 5000,
        quantity: 4_000_000n,
        expiry: 0,
        timeInForce: 'ioc',
      }),
    );
    // The bid keeps 3_000_000 committed and its fill holds 2_000_000 (the maker pays its own leg): still 5_000_000 free.
    expect(() => ledger.check(check('a', 'buy', 5000, 10_000_000n, '3'))).toThrow(
      expect.objectContaining({ extra: { available: '5000000', required: '5012502' } }),
    );
    // The seller's 4 tokens are held by the fill: 6 left to sell.
    expect(() => ledger.check(check('b', 'sell', 5000, 7_000_000n, '2'))).toThrow(
      expect.objectContaining({ extra: { available: '6000000', required: '7000000' } }),
    );
    ledger.cancelled(M, [book.cancel('bid')!]);
    // Cancelling the rest of the bid frees its 3_000_000: 8_000_000 free; 20 at 5000 needs 10_000_001 + ceil(10_000_001 × 25 / 10000) = 10_025_002.
    expect(() => ledger.check(check('a', 'buy', 5000, 20_000_000n, '4'))).toThrow(
      expect.objectContaining({ extra: { available: '8000000', required: '10025002' } }),
    );
  });
});

describe('BatchLedger: a postOnly buy holds only its maker amount (issue 25 part 5)', () => {
  it('worked example: 10 YES at 6000 commits 6_000_000; postOnly needs exactly that, a plain limit order 6_015_002', () => {
    const ledger = new BatchLedger(DEFAULT_FEES, new Map([['a', start(6_000_000n)]]), new Set());
    const book = new OrderBook({ marketId: M });
    // Plain limit: P + 1 = 6_000_001, taker fee ceil(6_000_001 × 25 / 10000) = 15_001 → 6_015_002 > 6_000_000.
    expect(() => ledger.check(check('a', 'buy', 6000, 10_000_000n, '1'))).toThrow(
      expect.objectContaining({ code: 'INSUFFICIENT_BALANCE', extra: { available: '6000000', required: '6015002' } }),
    );
    // postOnly: it can only ever fill as maker (no fee, no slack unit): ceil(10_000_000 × 6000 / 10000) = 6_000_000.
    const postOnly = { ...check('a', 'buy', 6000, 10_000_000n, '2'), postOnly: true };
    ledger.check(postOnly);
    ledger.placed(
      postOnly,
      book.place({ id: 'p', owner: 'a', side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10_000_000n, expiry: 0, postOnly: true }),
    );
    // It rests committing all 6_000_000: not one raw unit more is free.
    expect(() => ledger.check({ ...check('a', 'buy', 6000, 1n, '3'), postOnly: true })).toThrow(
      expect.objectContaining({ extra: { available: '0', required: '1' } }),
    );
  });

  it('a postOnly buy one raw unit short of its commitment is refused', () => {
    const ledger = new BatchLedger(DEFAULT_FEES, new Map([['a', start(5_999_999n)]]), new Set());
    expect(() => ledger.check({ ...check('a', 'buy', 6000, 10_000_000n, '1'), postOnly: true })).toThrow(
      expect.objectContaining({ extra: { available: '5999999', required: '6000000' } }),
    );
  });
});
