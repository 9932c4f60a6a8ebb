/**
 * PnL equals the cash result (fast-check). A random world of traders deposits, splits, merges,
 * trades (direct, complementary and sell_complementary fills with taker fees and maker rebates),
 * resolves and redeems; the smart wallets move at once, as on chain. The positions job sees what
 * it sees in the daemon: settled fills, applied late and in pieces (applyOwnerMove), and the
 * wallets' outcome-token balances (walletMoves), compared once no fill is waiting.
 * After every full job run, for every trader:
 *   Σ outcomes (realised + unrealised at price p) = cash result + Σ outcomes floor(held × p / 10000)
 * with the cash result = USDC in the smart wallet − USDC deposited; once resolved and every
 * winning token redeemed, total PnL = cash result to the raw unit.
 * Worked example (first test): split 20 USDC, sell 8 YES at 6000 (4.8 USDC, taker fee 0.012),
 * YES wins, redeem 12 YES: cash −20 + 4.788 + 12 = −3.212; PnL: split costs 10 per side; YES
 * realises 4.8 − 4 − 0.012 = 0.788 on the sale and 12 − 6 = 6 on the redemption; NO 20 held at 0:
 * unrealised −10. Total 0.788 + 6 − 10 = −3.212.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyOwnerMove,
  applyWalletMove,
  EMPTY_POSITION,
  fillMoves,
  unrealizedPnl,
  walletMoves,
  type MarketPositions,
  type Outcome,
} from '../../../src/domain/orderbook/index.js';
type Fill = Parameters<typeof fillMoves>[0];

interface Trader {
  deposited: bigint;
  usdc: bigint;
  tokens: Record<Outcome, bigint>;
  positions: MarketPositions;
}

class World {
  readonly traders = new Map<string, Trader>();
  readonly unapplied: Fill[] = [];
  winner: Outcome | null = null;

  constructor(names: string[]) {
    for (const n of names)
      this.traders.set(n, { deposited: 0n, usdc: 0n, tokens: { yes: 0n, no: 0n }, positions: { yes: EMPTY_POSITION, no: EMPTY_POSITION } });
  }

  t(name: string): Trader {
    return this.traders.get(name)!;
  }

  deposit(name: string, amount: bigint): void {
    this.t(name).deposited += amount;
    this.t(name).usdc += amount;
  }

  split(name: string, amount: bigint): void {
    const t = this.t(name);
    const q = amount < t.usdc ? amount : t.usdc;
    if (this.winner || q === 0n) return;
    t.usdc -= q;
    t.tokens.yes += q;
    t.tokens.no += q;
  }

  merge(name: string, amount: bigint): void {
    const t = this.t(name);
    const most = t.tokens.yes < t.tokens.no ? t.tokens.yes : t.tokens.no;
    const q = amount < most ? amount : most;
    if (this.winner || q === 0n) return;
    t.usdc += q;
    t.tokens.yes -= q;
    t.tokens.no -= q;
  }

  redeem(name: string, amount: bigint): void {
    if (!this.winner) return;
    const t = this.t(name);
    const q = amount < t.tokens[this.winner] ? amount : t.tokens[this.winner];
    t.tokens[this.winner] -= q;
    t.usdc += q;
  }

  /**
   * A fill settles: what each side pays or receives, as settlement moves it (a buy pays usdc + fee,
   * a sale receives usdc − fee; the maker's fee is minus its rebate). Skipped when a side cannot pay.
   */
  trade(
    taker: string,
    maker: string,
    type: 'direct' | 'complementary' | 'sell_complementary',
    takerSide: 'buy' | 'sell',
    outcome: Outcome,
    priceBps: bigint,
    quantity: bigint,
    feeBps: bigint,
    rebateBps: bigint,
  ): void {
    if (this.winner || taker === maker) return;
    const other: Outcome = outcome === 'yes' ? 'no' : 'yes';
    const makerSide = type === 'direct' ? (takerSide === 'buy' ? 'sell' : 'buy') : takerSide;
    const makerOutcome = type === 'direct' ? outcome : other;
    const usdc = (quantity * priceBps) / 10_000n;
    const makerUsdc = type === 'direct' ? usdc : quantity - usdc;
    const fill: Fill = {
      taker_owner: taker,
      maker_owner: maker,
      taker_side: takerSide,
      outcome,
      maker_side: makerSide,
      maker_outcome: makerOutcome,
      quantity,
      usdc_amount: usdc,
      maker_usdc: makerUsdc,
      taker_fee: (usdc * feeBps) / 10_000n,
      maker_rebate: (usdc * rebateBps) / 10_000n,
    };
    const moves = fillMoves(fill);
    for (const m of moves) {
      const t = this.t(m.owner);
      if (m.side === 'buy' ? t.usdc < m.usdc + m.fee : t.tokens[m.outcome] < m.quantity) return;
    }
    for (const m of moves) {
      const t = this.t(m.owner);
      t.usdc += m.side === 'buy' ? -(m.usdc + m.fee) : m.usdc - m.fee;
      t.tokens[m.outcome] += m.side === 'buy' ? m.quantity : -m.quantity;
    }
    this.unapplied.push(fill);
  }

  /** The positions job: applies `count` settled fills; with none left waiting, reads the wallets. */
  job(count: number): void {
    for (const fill of this.unapplied.splice(0, count)) {
      for (const m of fillMoves(fill)) this.t(m.owner).positions = applyOwnerMove(this.t(m.owner).positions, m);
    }
    if (this.unapplied.length > 0) return;
    for (const t of this.traders.values()) {
      const counted = { yes: t.positions.yes.netQuantity, no: t.positions.no.netQuantity };
      for (const move of walletMoves(counted, t.tokens, this.winner)) t.positions = applyWalletMove(t.positions, move);
    }
  }
}

const value = (quantity: bigint, price: number) => (quantity * BigInt(price)) / 10_000n;

function checkTraders(world: World, prices: Record<Outcome, number>): void {
  for (const [name, t] of world.traders) {
    let pnl = 0n;
    let heldValue = 0n;
    for (const o of ['yes', 'no'] as const) {
      expect(t.positions[o].netQuantity, `${name} ${o} counted = held`).toBe(t.tokens[o]);
      pnl += t.positions[o].realizedPnl + unrealizedPnl(t.positions[o], prices[o])!;
      heldValue += value(t.tokens[o], prices[o]);
    }
    expect(pnl, `${name}: PnL = cash result + holdings`).toBe(t.usdc - t.deposited + heldValue);
  }
}

const names = ['a', 'b', 'c'];
const who = fc.constantFrom(...names);
// Odd raw amounts on purpose: the split's halves and every floor are exercised.
const amount = fc.bigInt({ min: 1n, max: 40_000_001n });
const op = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), who, amount }),
  fc.record({ kind: fc.constant('split' as const), who, amount }),
  fc.record({ kind: fc.constant('merge' as const), who, amount }),
  fc.record({
    kind: fc.constant('trade' as const),
    taker: who,
    maker: who,
    type: fc.constantFrom('direct' as const, 'complementary' as const, 'sell_complementary' as const),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    outcome: fc.constantFrom('yes' as const, 'no' as const),
    price: fc.bigInt({ min: 1n, max: 9_999n }),
    quantity: amount,
    fee: fc.bigInt({ min: 0n, max: 200n }),
    rebate: fc.bigInt({ min: 0n, max: 50n }),
  }),
  fc.record({ kind: fc.constant('job' as const), count: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('check' as const), yes: fc.integer({ min: 0, max: 10_000 }), no: fc.integer({ min: 0, max: 10_000 }) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

function run(world: World, o: Op): void {
  if (o.kind === 'deposit') world.deposit(o.who, o.amount);
  else if (o.kind === 'split') world.split(o.who, o.amount);
  else if (o.kind === 'merge') world.merge(o.who, o.amount);
  else if (o.kind === 'trade') {
    // complementary fills are buys on both sides, sell_complementary sales on both.
    const side = o.type === 'complementary' ? 'buy' : o.type === 'sell_complementary' ? 'sell' : o.side;
    world.trade(o.taker, o.maker, o.type, side, o.outcome, o.price, o.quantity, o.fee, o.rebate);
  } else if (o.kind === 'job') world.job(o.count);
  else {
    world.job(Number.MAX_SAFE_INTEGER);
    checkTraders(world, { yes: o.yes, no: o.no });
  }
}

describe('PnL equals the cash result', () => {
  it('worked example: split 20, sell 8 YES at 6000, YES wins, redeem 12', () => {
    const world = new World(['s', 'b']);
    world.deposit('s', 20_000_000n);
    world.deposit('b', 10_000_000n);
    world.split('s', 20_000_000n);
    world.trade('s', 'b', 'direct', 'sell', 'yes', 6000n, 8_000_000n, 25n, 0n); // fee 0.012
    world.job(Number.MAX_SAFE_INTEGER);
    world.winner = 'yes';
    world.redeem('s', 12_000_000n);
    world.job(Number.MAX_SAFE_INTEGER);
    const s = world.t('s');
    expect(s.usdc - s.deposited).toBe(-3_212_000n);
    expect(s.positions.yes).toMatchObject({ netQuantity: 0n, realizedPnl: 788_000n + 6_000_000n });
    expect(unrealizedPnl(s.positions.no, 0)).toBe(-10_000_000n);
    checkTraders(world, { yes: 10_000, no: 0 });
  });

  it('for every trader, at every price, before and after resolution and redemption', () => {
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 1, maxLength: 60 }),
        fc.constantFrom('yes' as const, 'no' as const),
        fc.array(op, { maxLength: 10 }),
        fc.array(fc.record({ who, amount }), { maxLength: 6 }),
        (before, winner, after, redemptions) => {
          const world = new World(names);
          for (const o of before) run(world, o);
          world.winner = winner; // fills settled before resolution may still wait for the job
          for (const o of after) run(world, o);
          for (const r of redemptions) world.redeem(r.who, r.amount);
          const prices = { yes: winner === 'yes' ? 10_000 : 0, no: winner === 'no' ? 10_000 : 0 };
          world.job(Number.MAX_SAFE_INTEGER);
          checkTraders(world, prices);
          for (const name of names) world.redeem(name, 1n << 62n);
          world.job(Number.MAX_SAFE_INTEGER);
          for (const t of world.traders.values()) {
            const total = (['yes', 'no'] as const).reduce(
              (sum, o) => sum + t.positions[o].realizedPnl + unrealizedPnl(t.positions[o], prices[o])!,
              0n,
            );
            expect(total).toBe(t.usdc - t.deposited); // everything redeemed: PnL = cash result
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
