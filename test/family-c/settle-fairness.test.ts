/**
 * Issue 25's reproduction on the real keeper: an attacker rests one order whose proof never
 * lands (the embedded cluster drops every transaction carrying the attacker's key, so its batch
 * stays in flight) and takes it with 130 one-unit IOC sells from a second key (a market whose
 * minOrderSize allows it). Before the fix the planner read the first 128 matched fills, all
 * waiting for that proof, and planned nothing else: an honest fill matched afterwards stayed
 * `matched`. Now it settles at once; then with 10,000 waiting fills in the market, measured.
 */
import { randomUUID } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clobWrite,
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness({ CLOB_SETTLE_SWEEP_INTERVAL_MS: '500' });
});
afterAll(async () => {
  h?.ledger.faults.reset();
  await h?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fillStatus = async (id: string) => ((await get(h, `/v2/clob/fills/${id}`)).json().fill as Json).status as string;

async function withYes(deposit: bigint, tokens: bigint, marketId: string): Promise<Keypair> {
  const t = await depositedTrader(h, deposit);
  const pk = t.publicKey.toBase58();
  await clobWrite(h, '/v2/clob/account/split', { pubkey: pk, marketId, amount: tokens.toString() }, t);
  await waitFor('split indexed', async () =>
    (await get(h, `/v2/clob/account/balances?pubkey=${pk}`)).json().markets[0]?.yesTokens === tokens.toString() ? true : undefined,
  );
  return t;
}

describe('fair settlement planning', () => {
  let market: Awaited<ReturnType<typeof createClobMarket>>;
  let honestMaker: Keypair;
  let honestTaker: Keypair;
  let attackOrderId: string;

  /** An honest trade away from the attacker's price; answers the fill's settle latency. */
  async function honestTrade(): Promise<{ fillId: string; ms: number }> {
    await place(h, honestMaker, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1n * USDC });
    const started = performance.now();
    const r = await place(h, honestTaker, {
      market: market.marketPubkey,
      side: 'buy',
      outcome: 'yes',
      priceBps: 6000,
      quantity: 1n * USDC,
      timeInForce: 'ioc',
    });
    const fillId = (r.fills as Json[])[0]!.id as string;
    await waitFor('the honest fill settled', async () => ((await fillStatus(fillId)) === 'settled' ? true : undefined), 20_000);
    return { fillId, ms: performance.now() - started };
  }

  it('settles an honest fill while 130 dust fills wait on one proof in flight', async () => {
    market = await createClobMarket(h, { minOrderSize: '1' });
    const attacker = await depositedTrader(h, 1_000n);
    const dustKey = await withYes(2n * USDC, 1n * USDC, market.id);
    honestMaker = await withYes(20n * USDC, 10n * USDC, market.id);
    honestTaker = await depositedTrader(h, 20n * USDC);

    // Every transaction carrying the attacker's proof is accepted and never lands.
    h.ledger.faults.set({ dropContaining: [attacker.publicKey.toBytes()] });
    const bid = await place(h, attacker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 130n });
    attackOrderId = bid.orderId as string;
    const dust: string[] = [];
    for (let i = 0; i < 130; i++) {
      const r = await place(h, dustKey, {
        market: market.marketPubkey,
        side: 'sell',
        outcome: 'yes',
        priceBps: 5000,
        quantity: 1n,
        timeInForce: 'ioc',
      });
      dust.push(...(r.fills as Json[]).map((f) => f.id as string));
    }
    expect(dust).toHaveLength(130);
    await waitFor('the first dust fill in flight', async () =>
      ['settling', 'retrying'].includes(await fillStatus(dust[0]!)) ? true : undefined,
    );

    const { ms } = await honestTrade();
    console.log(`honest fill settled ${ms.toFixed(0)} ms after its match, 130 dust fills waiting`);
    // The dust still waits for the attacker's proof: none of it settled.
    const statuses = await Promise.all(dust.map(fillStatus));
    expect(statuses.filter((s) => s === 'settled')).toEqual([]);
  }, 120_000);

  it('settles an honest fill with 10,000 waiting fills in its market (latency measured)', async () => {
    // 9,870 more fills on the attacker's order, matched before any other (negative seq, never
    // a seq the matcher uses): copies of a dust fill, waiting for the same proof.
    const db = h.daemon.db.db;
    const model = await db
      .selectFrom('clob_fills')
      .selectAll()
      .where('maker_order_id', '=', attackOrderId)
      .where('status', '=', 'matched')
      .limit(1)
      .executeTakeFirstOrThrow();
    const copies = Array.from({ length: 9_870 }, (_, i) => ({ ...model, id: randomUUID(), seq: BigInt(-1 - i) }));
    for (let i = 0; i < copies.length; i += 500)
      await db
        .insertInto('clob_fills')
        .values(copies.slice(i, i + 500))
        .execute();
    const waiting = await db
      .selectFrom('clob_fills')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('maker_order_id', '=', attackOrderId)
      .where('status', '!=', 'settled')
      .executeTakeFirstOrThrow();
    expect(Number(waiting.n)).toBe(10_000);

    const runs: number[] = [];
    for (let i = 0; i < 5; i++) runs.push((await honestTrade()).ms);
    console.log(
      `honest fill latency with 10,000 waiting dust fills: ${runs.map((ms) => ms.toFixed(0)).join(', ')} ms (worst ${Math.max(...runs).toFixed(0)})`,
    );
  }, 120_000);
});
