/**
 * The planner's choice between settling fills with their proofs inline and registering their new
 * orders first (src/services/family-c/settlement/settle-choice.ts), on real signed orders and the
 * market's real lookup table, with the worked examples of the module's comment.
 */
import { randomUUID } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_PROGRAM_ID, type SettlementFill } from '../../src/chain/programs/exchange/index.js';
import { outboundMemoInstruction } from '../../src/services/outbound/outbound-memo.js';
import { chooseBatch, registerFirstCost, type BatchChoice } from '../../src/services/family-c/settlement/settle-choice.js';
import { RegistrationsInFlight } from '../../src/services/family-c/settlement/registrations.js';
import { SettleHarness, USDC } from '../programs/exchange/settle-harness.js';

let s: SettleHarness;
let m: string;
const traders: Keypair[] = [];

beforeAll(async () => {
  s = await SettleHarness.open();
  m = await s.createMarket();
  for (let i = 0; i < 10; i++) traders.push(await s.trader(20n * USDC, m, 20n * USDC));
}, 120_000);
afterAll(async () => { await s.close(); });

const ask = (t: Keypair) => s.order(t, m, { side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 1n * USDC });
const bid = (t: Keypair, quantity = 1n * USDC) => s.order(t, m, { side: 'buy', outcome: 'yes', priceBps: 5000, quantity });

/** Plans like the keeper's planner: batch after batch, registrations in flight, until nothing more can be planned now. */
async function planAll(fills: SettlementFill[], registering = new Set<string>()): Promise<BatchChoice[]> {
  const ctx = {
    ...s.marketRef(m), recentBlockhash: s.ledger.getLatestBlockhash().blockhash, memo: outboundMemoInstruction(randomUUID()),
    orderStates: s.orderStates(fills), lookupTables: [await s.ensureLookupTable(m, fills)], programId: EXCHANGE_PROGRAM_ID,
  };
  const out: BatchChoice[] = [];
  for (let waiting = fills; waiting.length > 0;) {
    const choice = chooseBatch(waiting, ctx, registering);
    if (!choice) break;
    out.push(choice);
    choice.registers.forEach((a) => registering.add(a));
    waiting = waiting.filter((f) => !choice.fillIds.includes(f.fillId));
  }
  return out;
}

describe('registering first or proofs inline', () => {
  it('counts transactions: ⌈new orders ÷ per registration⌉ + ⌈fills ÷ 8⌉', () => {
    expect(registerFirstCost(25, 24, 2)).toBe(16); // one taker sweeping 24 new makers (inline: 24)
    expect(registerFirstCost(10, 5, 2)).toBe(6); // five fills between ten new traders (inline: 5)
    expect(registerFirstCost(3, 2, 2)).toBe(3); // a taker and two makers (inline: 2)
  });

  it('one taker sweeping new makers: registrations of two orders, then the last fills wait for the taker\'s', async () => {
    const taker = bid(traders[0]!, 30n * USDC);
    const fills = traders.slice(1).map((t) => s.fill(taker, ask(t), 1n * USDC, 'direct'));
    const plan = await planAll(fills);
    expect(plan.map((c) => [c.kind, c.registers.length, c.fillIds.length])).toEqual([['register', 2, 1], ['register', 2, 2], ['register', 2, 2], ['register', 2, 2]]);
    // The taker's and seven makers' registrations are in flight; the last two fills need one new
    // maker each (registering them would cost as much as settling them inline), and they wait for
    // the taker's registration rather than carry its proof again.
    const registering = new Set(plan.flatMap((c) => c.registers));
    expect(await planAll(fills.slice(7), registering)).toEqual([]);
  });

  it('five fills between ten new traders: inline, one fill per transaction', async () => {
    const fills = [0, 2, 4, 6, 8].map((i) => s.fill(bid(traders[i]!), ask(traders[i + 1]!), 1n * USDC, 'direct'));
    const plan = await planAll(fills);
    expect(plan.map((c) => [c.kind, c.fillIds.length])).toEqual([['settle', 1], ['settle', 1], ['settle', 1], ['settle', 1], ['settle', 1]]);
  });

  it('once the registrations land, the sweep\'s fills settle eight to a transaction', async () => {
    const taker = bid(traders[0]!, 30n * USDC);
    const fills = traders.slice(1).map((t) => s.fill(taker, ask(t), 1n * USDC, 'direct'));
    const lookupTables = [await s.ensureLookupTable(m, fills)];
    for (const c of await planAll(fills)) {
      const registration = s.registration(m, fills.filter((f) => c.fillIds.includes(f.fillId)), { lookupTables })!;
      expect(registration.newOrders).toEqual(c.registers);
      expect((await s.sendBatch(registration)).err).toBeNull();
    }
    const plan = await planAll(fills.slice(0, 7));
    expect(plan.map((c) => [c.kind, c.fillIds.length])).toEqual([['settle', 7]]);
    expect(plan[0]!.fillIds).toEqual(fills.slice(0, 7).map((f) => f.fillId));
  });
});

describe('registrations in flight (this process\'s view)', () => {
  it('end with their batch, or lapse after the time-to-live', () => {
    let now = 0;
    const r = new RegistrationsInFlight(1_000, () => now);
    r.add('b1', ['o1', 'o2']);
    r.add('b2', ['o3']);
    r.end('b1');
    expect([r.has('o1'), r.has('o2'), r.has('o3')]).toEqual([false, false, true]);
    now = 1_000;
    expect(r.has('o3')).toBe(true);
    now = 1_001; // b2 ended in another process: its entry lapses
    expect(r.has('o3')).toBe(false);
  });
});
