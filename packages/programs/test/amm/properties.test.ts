/**
 * Property tests: no sequence of buys and sells can leave the vault short of its liabilities or
 * create value from rounding. The vault is simulated as a plain balance that only moves by what
 * the quotes say the program transfers.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AmmError,
  ammBuy,
  ammSell,
  claimCreatorFees,
  claimProtocolFees,
  openMarket,
  quoteBuy,
  quoteSell,
  redeemPayout,
  resolveMarket,
  vaultLiabilities,
  type MarketState,
  type OutcomeSide,
} from '../../src/amm/index.js';

const side = fc.constantFrom<OutcomeSide>('YES', 'NO');
const op = fc.record({
  kind: fc.constantFrom('buy', 'buy', 'sell'),
  user: fc.integer({ min: 0, max: 2 }),
  side,
  amount: fc.bigInt({ min: 100_000n, max: 5_000_000_000n }),
  fraction: fc.integer({ min: 1, max: 100 }),
});

type Holdings = Record<OutcomeSide, bigint>[];
/** Two closing buys so that both sides always have holders and every run reaches settlement. */
const CLOSING: Op[] = [
  { kind: 'buy', user: 0, side: 'YES', amount: 1_000_000n, fraction: 0 },
  { kind: 'buy', user: 1, side: 'NO', amount: 1_000_000n, fraction: 0 },
];
type Op = { kind: string; user: number; side: OutcomeSide; amount: bigint; fraction: number };

function play(start: MarketState, ops: Op[]) {
  let m = start;
  let vault = start.collateral;
  const holders: Holdings = [0, 1, 2].map(() => ({ YES: 0n, NO: 0n }));
  for (const o of ops) {
    const h = holders[o.user]!;
    try {
      if (o.kind === 'buy') {
        const q = quoteBuy(m, o.side, o.amount);
        vault += q.inputAmount;
        h[o.side] += q.outputAmount;
        m = q.next;
      } else {
        const q = quoteSell(m, o.side, (h[o.side] * BigInt(o.fraction)) / 100n);
        vault -= q.outputAmount;
        h[o.side] -= q.inputAmount;
        m = q.next;
      }
    } catch (e) {
      if (!(e instanceof AmmError)) throw e;
    }
    if (m.mode === 'amm') {
      expect(m.yesReserve + m.yesSupply).toBe(m.collateral);
      expect(m.noReserve + m.noSupply).toBe(m.collateral);
    }
    expect(vaultLiabilities(m)).toBe(vault);
  }
  return { m, vault, holders };
}

function settle(m0: MarketState, vault0: bigint, holders: Holdings, winner: OutcomeSide) {
  let { next: m } = resolveMarket(m0, winner);
  let vault = vault0 - (m0.collateral - m.collateral);
  for (const h of holders) {
    for (const s of ['YES', 'NO'] as const) {
      if (h[s] === 0n) continue;
      const r = redeemPayout(m, s, h[s]);
      vault -= r.payout;
      m = r.next;
    }
  }
  const c = claimCreatorFees(m);
  const p = claimProtocolFees(c.next);
  return { m: p.next, vault: vault - c.amount - p.amount };
}

describe('AMM properties', () => {
  it('every state keeps the vault equal to its liabilities, and settlement empties it exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1_000_000n, max: 10_000_000_000n }),
        fc.integer({ min: 100, max: 400 }),
        fc.array(op, { maxLength: 30 }),
        side,
        (seed, bps, ops, winner) => {
          const { m, vault, holders } = play(openMarket(seed, BigInt(bps)), [...ops, ...CLOSING]);
          const end = settle(m, vault, holders, winner);
          expect(end.vault).toBe(0n);
          expect(end.m.collateral).toBe(0n);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a buy followed by selling every token bought never returns more than was paid', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1_000_000n, max: 10_000_000_000n }),
        fc.bigInt({ min: 100_000n, max: 10_000_000_000n }),
        side,
        (seed, amount, s) => {
          const b = quoteBuy(openMarket(seed, 100n), s, amount);
          try {
            expect(quoteSell(b.next, s, b.outputAmount).outputAmount).toBeLessThan(amount);
          } catch (e) {
            if (!(e instanceof AmmError)) throw e;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the bare curve (no fee) cannot be round-tripped for a profit and k never decreases', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 1n << 40n }),
        fc.bigInt({ min: 1n, max: 1n << 40n }),
        fc.bigInt({ min: 1n, max: 1n << 40n }),
        side,
        (y, n, x, s) => {
          const k = y * n;
          const b = ammBuy({ yesReserve: y, noReserve: n }, s, x);
          expect(b.next.yesReserve * b.next.noReserve).toBeGreaterThanOrEqual(k);
          try {
            const back = ammSell(b.next, s, b.tokensOut);
            expect(back.collateralOut).toBeLessThanOrEqual(x);
            expect(back.next.yesReserve * back.next.noReserve).toBeGreaterThanOrEqual(k);
          } catch (e) {
            if (!(e instanceof AmmError)) throw e;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
  it('splitting a trade in two never yields more than the whole trade (rounding cannot be farmed)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 1n << 40n }),
        fc.bigInt({ min: 1n, max: 1n << 40n }),
        fc.bigInt({ min: 1n, max: 1n << 36n }),
        fc.bigInt({ min: 1n, max: 1n << 36n }),
        side,
        (y, n, x1, x2, s) => {
          const r = { yesReserve: y, noReserve: n };
          const first = ammBuy(r, s, x1);
          const second = ammBuy(first.next, s, x2);
          const whole = ammBuy(r, s, x1 + x2);
          expect(first.tokensOut + second.tokensOut).toBeLessThanOrEqual(whole.tokensOut);
          try {
            const sellA = ammSell(whole.next, s, first.tokensOut);
            const sellB = ammSell(sellA.next, s, second.tokensOut);
            const sellAll = ammSell(whole.next, s, first.tokensOut + second.tokensOut);
            expect(sellA.collateralOut + sellB.collateralOut).toBeLessThanOrEqual(sellAll.collateralOut);
          } catch (e) {
            if (!(e instanceof AmmError)) throw e;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('Pool properties', () => {
  it('winners split exactly the pot; the vault ends empty', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), side, (ops, winner) => {
        const { m, vault, holders } = play(openMarket(0n, 200n), [...ops.map((o) => ({ ...o, kind: 'buy' })), ...CLOSING]);
        const end = settle(m, vault, holders, winner);
        expect(end.vault).toBe(0n);
      }),
      { numRuns: 200 },
    );
  });
});
