/**
 * The keeper's assembly at its limits: the largest prefix it returns lands as one transaction,
 * one more fill would not fit (size, account locks or compute), and the batch sizes reached are
 * the ones packages/programs/docs/programs.md states ("Settlement batches"), with and without signatures travelling
 * and with and without the market's lookup table.
 */
import { randomUUID } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TX_ACCOUNT_LOCKS, PACKET_DATA_SIZE, predictSettlement, type SettlementBatch, type SettlementFill } from '@pmx/programs';
import { SettleHarness, USDC, type TestOrder } from './settle-harness.js';

let s: SettleHarness;
let m: string;
const pairs: { buyer: Keypair; seller: Keypair }[] = [];
const PAIRS = 14;

beforeAll(async () => {
  s = await SettleHarness.open();
  m = await s.createMarket();
  for (let i = 0; i < PAIRS; i++) pairs.push({ buyer: await s.trader(20n * USDC), seller: await s.trader(0n, m, 20n * USDC) });
}, 120_000);
afterAll(async () => {
  await s.close();
});

/** One fill per pair, distinct traders; when `existing`, each order has settled once before (its account exists). */
async function pairFills(existing: boolean): Promise<SettlementFill[]> {
  const orders = pairs.map(({ buyer, seller }) => ({
    bid: s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 2n * USDC }),
    ask: s.order(seller, m, { side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 2n * USDC }),
  }));
  if (existing)
    await s.settle(
      m,
      orders.map((o) => s.fill(o.bid, o.ask, 1n * USDC, 'direct')),
    );
  return orders.map((o) => s.fill(o.bid, o.ask, 1n * USDC, 'direct', randomUUID()));
}

async function lands(b: SettlementBatch): Promise<void> {
  expect(b.size).toBeLessThanOrEqual(PACKET_DATA_SIZE);
  expect(b.accounts).toBeLessThanOrEqual(MAX_TX_ACCOUNT_LOCKS);
  const res = await s.sendBatch(b);
  expect(res.err).toBeNull();
  for (const f of b.fills) expect(s.receipt(f.fillId)).not.toBeNull();
}

const sizes: Record<string, number> = {};

describe('settlement batches at their maximum size', () => {
  it('orders already on chain, through the lookup table', async () => {
    const fills = await pairFills(true);
    const b = s.batch(m, fills, { lookupTables: [await s.ensureLookupTable(m, fills)] });
    expect(b.kind).toBe('settle');
    expect(b.newOrders).toEqual([]);
    expect(b.fills.length).toBeLessThan(fills.length);
    sizes['existing orders, lookup table'] = b.fills.length;
    await lands(b);
  });

  it('orders already on chain, no lookup table', async () => {
    const fills = await pairFills(true);
    const b = s.batch(m, fills);
    sizes['existing orders, no table'] = b.fills.length;
    await lands(b);
  });

  it('every order new (both signatures travel), through the lookup table', async () => {
    const fills = await pairFills(false);
    const b = s.batch(m, fills, { lookupTables: [await s.ensureLookupTable(m, fills)] });
    expect(b.newOrders).toHaveLength(2 * b.fills.length);
    sizes['new orders, lookup table'] = b.fills.length;
    await lands(b);
  });

  it('every order new, no lookup table: the orders are registered first', async () => {
    const fills = await pairFills(false);
    const reg = s.batch(m, fills);
    expect(reg.kind).toBe('register');
    sizes['orders registered per transaction, no table'] = reg.newOrders.length;
    await lands(reg);
    // Re-sending a registration changes nothing and fails nothing.
    expect(
      (
        await s.sendBatch(
          s.batch(
            m,
            [fills[0]!].map((f) => ({ ...f, fillId: randomUUID() })),
          ),
        )
      ).err,
    ).toBeNull();
    // Through the lookup table the same fill needs no registration.
    expect(s.batch(m, fills.slice(1), { lookupTables: [await s.ensureLookupTable(m, fills)] }).kind).toBe('settle');
  });

  it('a taker sweeping makers whose orders exist, through the lookup table', async () => {
    const { buyer } = pairs[0]!;
    const asks: TestOrder[] = pairs.map(({ seller }) =>
      s.order(seller, m, { side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 2n * USDC }),
    );
    const bid = s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 30n * USDC });
    await s.settle(
      m,
      asks.map((a) => s.fill(s.order(pairs[1]!.buyer, m, { side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1n }), a, 1n, 'direct')),
    );
    await s.settle(m, [s.fill(bid, asks[0]!, 1n, 'direct')]);
    const fills = asks.map((a) => s.fill(bid, a, 1n * USDC, 'direct', randomUUID()));
    const b = s.batch(m, fills, { lookupTables: [await s.ensureLookupTable(m, fills)] });
    sizes['taker sweep, existing orders, lookup table'] = b.fills.length;
    // The keeper's prediction equals what lands.
    const predicted = predictSettlement(b.fills, s.orderStates(b.fills), { takerFeeBps: 25n, makerRebateBps: 5n });
    await lands(b);
    for (const p of predicted)
      expect(s.receipt(p.fillId)).toMatchObject({
        takerUsdc: p.money!.takerUsdc,
        takerFee: p.money!.takerFee,
        makerRebate: p.money!.makerRebate,
      });
  });

  it('a taker whose order exists sweeping makers new on chain (one signature per fill), through the lookup table', async () => {
    const { buyer } = pairs[2]!;
    const bid = s.order(buyer, m, { side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 30n * USDC });
    await s.settle(m, [
      s.fill(bid, s.order(pairs[3]!.seller, m, { side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 1n }), 1n, 'direct'),
    ]);
    const fills = pairs.map(({ seller }) =>
      s.fill(bid, s.order(seller, m, { side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 1n * USDC }), 1n * USDC, 'direct'),
    );
    const b = s.batch(m, fills, { lookupTables: [await s.ensureLookupTable(m, fills)] });
    sizes['taker sweep, makers new, lookup table'] = b.fills.length;
    await lands(b);
  });

  it('reaches the documented sizes', () => {
    expect(sizes).toEqual({
      'existing orders, lookup table': 5, // 60 accounts: a sixth fill needs 69 (limit 64)
      'existing orders, no table': 1,
      'new orders, lookup table': 1,
      'orders registered per transaction, no table': 1,
      'taker sweep, existing orders, lookup table': 8, // 1136 bytes, 58 accounts: a ninth locks 65 (limit 64)
      'taker sweep, makers new, lookup table': 2, // 1183 bytes: a third proof passes 1232
    });
  });
});
