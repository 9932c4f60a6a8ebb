/**
 * Property: fills produced by the real matching engine from random signed orders, settled on
 * chain in the engine's order through the keeper's assembly, land with exactly the engine's
 * amounts (every leg, fee, rebate and dust); after them the vault invariant holds (YES supply =
 * NO supply = complete_sets = vault balance), no raw USDC unit is created or lost across smart
 * wallets, the vault and the fee wallet, the fee wallet gained exactly Σ protocol fee + dust,
 * and every order account's filled quantity equals the engine's.
 */
import fc from 'fast-check';
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderBook, type Fill } from '../../../src/domain/orderbook/index.js';
import type { SettlementFill } from '@pmx/programs';
import { SettleHarness, USDC, type TestOrder } from './settle-harness.js';

let s: SettleHarness;
beforeAll(async () => {
  s = await SettleHarness.open();
});
afterAll(async () => {
  await s.close();
});

const TRADERS = 4;
const order = fc.record({
  trader: fc.integer({ min: 0, max: TRADERS - 1 }),
  side: fc.constantFrom<'buy' | 'sell'>('buy', 'sell'),
  outcome: fc.constantFrom<'yes' | 'no'>('yes', 'no'),
  // Prices near the middle cross often, directly and complementarily; odd ones round.
  priceBps: fc.oneof(fc.integer({ min: 4700, max: 5300 }), fc.constantFrom(3333, 6667, 1, 9999)),
  // Whole tokens and odd raw amounts (rounding).
  quantity: fc.oneof(
    fc.bigInt({ min: 1n, max: 5n }).map((q) => q * USDC),
    fc.bigInt({ min: 1n, max: 3_000_001n }),
  ),
  ioc: fc.boolean(),
});

describe('settle with the real engine', () => {
  it("lands the engine's exact amounts and keeps the vault invariant and USDC conservation", async () => {
    let settledFills = 0;
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(order, { minLength: 8, maxLength: 40 }), async (orders) => {
        const m = await s.createMarket();
        const traders: Keypair[] = [];
        // Balances no random stream can exhaust (≤ 46 orders of ≤ 5 tokens): every fill must settle.
        for (let i = 0; i < TRADERS; i++) traders.push(await s.trader(400n * USDC, m, 300n * USDC));
        const book = new OrderBook({ marketId: m });
        const signed = new Map<string, TestOrder>();
        const fills: Fill[] = [];
        // Every run opens with one fill of each type, so the property never runs vacuously.
        const opening: typeof orders = [
          { trader: 0, side: 'sell', outcome: 'yes', priceBps: 5000, quantity: USDC, ioc: false },
          { trader: 1, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: USDC, ioc: true },
          { trader: 0, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: USDC, ioc: false },
          { trader: 1, side: 'buy', outcome: 'no', priceBps: 5000, quantity: USDC, ioc: true },
          { trader: 0, side: 'sell', outcome: 'yes', priceBps: 5000, quantity: USDC, ioc: false },
          { trader: 1, side: 'sell', outcome: 'no', priceBps: 5000, quantity: USDC, ioc: true },
        ];
        [...opening, ...orders].forEach((o, i) => {
          const t = s.order(traders[o.trader]!, m, { side: o.side, outcome: o.outcome, priceBps: o.priceBps, quantity: o.quantity });
          const id = `o${i}`;
          signed.set(id, t);
          const r = book.place({
            id,
            owner: traders[o.trader]!.publicKey.toBase58(),
            side: o.side,
            outcome: o.outcome,
            priceBps: o.priceBps,
            quantity: o.quantity,
            expiry: Number(t.terms.expiry),
            timeInForce: o.ioc ? 'ioc' : 'gtc',
          });
          fills.push(...r.fills);
        });
        const usdcTotal = () => traders.reduce((n, k) => n + s.usdc(k), 0n) + s.vault(m) + s.feeUsdc();
        const total0 = usdcTotal();
        const fee0 = s.feeUsdc();
        const settlement: SettlementFill[] = fills.map((f, i) => ({
          ...f,
          fillId: crypto.randomUUID(),
          takerOrder: signed.get(f.takerOrderId)!,
          makerOrder: signed.get(f.makerOrderId)!,
          seq: i,
        }));
        if (settlement.length) await s.settle(m, settlement);
        for (const f of fills) seen.add(f.fillType);
        settledFills += fills.length;
        settlement.forEach((f, i) => {
          const r = s.receipt(f.fillId)!;
          const e = fills[i]!;
          expect([
            r.fillType,
            r.priceBps,
            r.quantity,
            r.takerUsdc,
            r.makerUsdc,
            r.takerFee,
            r.makerRebate,
            r.protocolFee,
            r.roundingDust,
          ]).toEqual([
            e.fillType,
            e.priceBps,
            e.quantity,
            e.usdcAmount,
            e.makerUsdc,
            e.takerFee,
            e.makerRebate,
            e.protocolFee,
            e.roundingDust,
          ]);
        });
        const sets = s.completeSets(m);
        expect([s.supply(m, 'yes'), s.supply(m, 'no'), s.vault(m)]).toEqual([sets, sets, sets]);
        for (const outcome of ['yes', 'no'] as const) expect(traders.reduce((n, k) => n + s.tokens(k, m, outcome), 0n)).toBe(sets);
        expect(usdcTotal()).toBe(total0);
        expect(s.feeUsdc() - fee0).toBe(fills.reduce((n, f) => n + f.protocolFee + f.roundingDust, 0n));
        const filled = new Map<string, bigint>();
        for (const f of fills) for (const id of [f.takerOrderId, f.makerOrderId]) filled.set(id, (filled.get(id) ?? 0n) + f.quantity);
        for (const [id, q] of filled) expect(s.orderState(signed.get(id)!)!.filled).toBe(q);
      }),
      { numRuns: 12 },
    );
    // Not vacuous: the random streams did produce fills of every type.
    expect(settledFills).toBeGreaterThanOrEqual(36);
    expect([...seen].sort()).toEqual(['complementary', 'direct', 'sell_complementary']);
  }, 240_000);
});
