/**
 * The planner's choice of the next batch (src/services/family-c/settlement/settle-choice.ts): proofs
 * inline, two to a transaction, and fills waiting for a proof in flight rather than carrying it
 * again — on real signed orders and the market's real lookup table, with the worked examples of
 * the module's comment.
 */
import { randomUUID } from 'node:crypto';
import { VersionedTransaction, type Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_PROGRAM_ID, type SettlementFill } from '@pmx/programs';
import { outboundTag } from '../../src/services/outbound/outbound-memo.js';
import { chooseBatch, type BatchChoice } from '../../src/services/family-c/settlement/settle-choice.js';
import { ProofsInFlight } from '../../src/services/family-c/settlement/proofs-in-flight.js';
import { SettleHarness, USDC } from '../programs/exchange/settle-harness.js';

let s: SettleHarness;
let m: string;
const traders: Keypair[] = [];

beforeAll(async () => {
  s = await SettleHarness.open();
  m = await s.createMarket();
  for (let i = 0; i < 10; i++) traders.push(await s.trader(20n * USDC, m, 20n * USDC));
}, 120_000);
afterAll(async () => {
  await s.close();
});

const ask = (t: Keypair) => s.order(t, m, { side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 1n * USDC });
const bid = (t: Keypair, quantity = 1n * USDC) => s.order(t, m, { side: 'buy', outcome: 'yes', priceBps: 5000, quantity });

/** Plans like the keeper's planner: batch after batch, proofs in flight, until nothing more can be planned now. */
async function planAll(fills: SettlementFill[], proving = new Set<string>()): Promise<BatchChoice[]> {
  const ctx = {
    ...s.marketRef(m),
    recentBlockhash: s.ledger.getLatestBlockhash().blockhash,
    tag: outboundTag(randomUUID()),
    orderStates: s.orderStates(fills),
    lookupTables: [await s.ensureLookupTable(m, fills)],
    programId: EXCHANGE_PROGRAM_ID,
  };
  const out: BatchChoice[] = [];
  for (let waiting = fills; waiting.length > 0;) {
    const choice = chooseBatch(waiting, ctx, proving);
    if (!choice) break;
    out.push(choice);
    choice.proves.forEach((a) => proving.add(a));
    waiting = waiting.filter((f) => !choice.fillIds.includes(f.fillId));
  }
  return out;
}

/** Lands a planned batch as the keeper's first build does (the planned message, signed by the operator). */
async function land(choice: BatchChoice): Promise<void> {
  const res = await s.sendBatch({ transaction: new VersionedTransaction(choice.message) });
  expect(res.err, res.logs.join('\n')).toBeNull();
}

const shape = (plan: BatchChoice[]) => plan.map((c) => [c.kind, c.proves.length, c.fillIds.length]);

describe('proofs inline, two to a transaction', () => {
  it('one new taker sweeping nine new makers: 1 transaction with both first proofs, then 4 with two makers each (registering first: 5 + 2)', async () => {
    const taker = bid(traders[0]!, 30n * USDC);
    const fills = traders.slice(1).map((t) => s.fill(taker, ask(t), 1n * USDC, 'direct'));
    const first = await planAll(fills);
    // The other fills need the taker's order, whose proof is in flight: they wait rather than carry it again.
    expect(shape(first)).toEqual([['settle', 2, 1]]);
    expect(first[0]!.fillIds).toEqual([fills[0]!.fillId]);
    await land(first[0]!);
    const rest = await planAll(fills.slice(1));
    expect(shape(rest)).toEqual([
      ['settle', 2, 2],
      ['settle', 2, 2],
      ['settle', 2, 2],
      ['settle', 2, 2],
    ]);
    expect(rest.flatMap((c) => c.fillIds)).toEqual(fills.slice(1).map((f) => f.fillId));
    for (const c of rest) await land(c); // each lands: two proofs and two fills fit 1232 bytes
    expect([...s.orderStates(fills).keys()]).toHaveLength(fills.length + 1);
  });

  it('five fills between ten new traders: one fill per transaction, both proofs inline', async () => {
    const fills = [0, 2, 4, 6, 8].map((i) => s.fill(bid(traders[i]!), ask(traders[i + 1]!), 1n * USDC, 'direct'));
    expect(shape(await planAll(fills))).toEqual([
      ['settle', 2, 1],
      ['settle', 2, 1],
      ['settle', 2, 1],
      ['settle', 2, 1],
      ['settle', 2, 1],
    ]);
  });

  it('fills of orders on chain travel without proofs, up to eight to a transaction', async () => {
    const taker = bid(traders[0]!, 30n * USDC);
    const asks = traders.slice(1, 8).map((t) => ask(t));
    const opening = asks.map((a) => s.fill(taker, a, (1n * USDC) / 2n, 'direct'));
    for (const c of await planAll(opening.slice(0, 1))) await land(c);
    for (const c of await planAll(opening.slice(1))) await land(c);
    const later = asks.map((a) => s.fill(taker, a, (1n * USDC) / 2n, 'direct'));
    expect(shape(await planAll(later))).toEqual([['settle', 0, 7]]);
  });
});

describe("proofs in flight (this process's view)", () => {
  it('end with their batch, or lapse after the time-to-live', () => {
    let now = 0;
    const r = new ProofsInFlight(1_000, () => now);
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
