/**
 * A pause or a resolution reaches the settlements in flight at once (issue 25 part 5). The
 * embedded cluster refuses every send (fault injection), so the fill's batch sits in its outbound
 * job's retries (`retrying`); then the operator pauses or resolves the market. The fill leaves
 * `retrying` at once — the job's attempt is still waiting out its 15 s confirmation timeout, and
 * 25 attempts remain — paused: back to `matched`, settled exactly once after the resume;
 * resolved: `failed` with MarketResolved, the holds released. /metrics counts each move and the
 * halted batch.
 */
import type { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFillReceiptPda } from '@pmx/programs';
import { admin, clobWrite, createClobMarket, depositedTrader, get, place, USDC, waitFor, type CHarness } from './family-c.harness.js';
import { CLOB_DATABASES, openClobHarnessOn } from './dialect-harness.js';
import { WsClient, wsUrl } from './ws-client.js';
import { parseSamples, sample, type Sample } from '../helpers/metrics-text.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const scrape = async (): Promise<Sample[]> => parseSamples((await get(h, '/metrics')).body);
/** How much a counter grew between two scrapes. */
const grew = (before: Sample[], after: Sample[], name: string, labels: Record<string, string>) =>
  (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
const moved = (from: string, to: string) => ({ from, to });

let h: CHarness;

const fill = async (id: string): Promise<Json> => (await get(h, `/v2/clob/fills/${id}`)).json().fill;
const fillIn = (id: string, statuses: string[], timeoutMs: number) =>
  waitFor(
    `fill ${id} ${statuses.join('|')}`,
    async () => {
      const f = await fill(id);
      return statuses.includes(f.status) ? f : undefined;
    },
    timeoutMs,
  );

/** A market with one fill whose settlement batch is held in its outbound retries. */
async function fillInRetry(): Promise<{ market: Json; taker: Keypair; fillId: string }> {
  h.ledger.faults.reset();
  const market = await createClobMarket(h);
  const maker = await depositedTrader(h, 20n * USDC);
  const taker = await depositedTrader(h, 20n * USDC);
  const mk = maker.publicKey.toBase58();
  await clobWrite(h, '/v2/clob/account/split', { pubkey: mk, marketId: market.id, amount: (10n * USDC).toString() }, maker);
  await waitFor('split indexed', async () =>
    (await get(h, `/v2/clob/account/balances?pubkey=${mk}`)).json().markets[0]?.yesTokens === '10000000' ? true : undefined,
  );
  // A first fill settles normally: the market's lookup table is on chain before the sends fail.
  await place(h, maker, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 1n * USDC });
  const first = await place(h, taker, {
    market: market.marketPubkey,
    side: 'buy',
    outcome: 'yes',
    priceBps: 6000,
    quantity: 1n * USDC,
    timeInForce: 'ioc',
  });
  await fillIn((first.fills as Json[])[0]!.id as string, ['settled'], 20_000);
  h.ledger.faults.set({ failNextSends: 1_000_000 });
  await place(h, maker, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 5n * USDC });
  const taken = await place(h, taker, {
    market: market.marketPubkey,
    side: 'buy',
    outcome: 'yes',
    priceBps: 6000,
    quantity: 5n * USDC,
    timeInForce: 'ioc',
  });
  const fillId = (taken.fills as Json[])[0]!.id as string;
  await fillIn(fillId, ['retrying'], 20_000).catch(async (e) => {
    const rows = await h.daemon.db.db
      .selectFrom('outbound_transactions')
      .select(['id', 'purpose', 'status', 'attempts', 'last_error'])
      .execute();
    throw new Error(
      `${(e as Error).message}: ${JSON.stringify(await fill(fillId))} ${JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
    );
  });
  // The operator's own transaction must land; the batch's job is inside its confirmation wait.
  h.ledger.faults.set({ failNextSends: 0 });
  return { market, taker, fillId };
}

// On both databases (issue 31: the keeper's writers lock in one order on PostgreSQL: db/row-locks.ts).
describe.each(CLOB_DATABASES.filter((d) => d.available))('pause and resolve reach settlements in flight on $name', ({ name }) => {
  beforeAll(async () => {
    h = await openClobHarnessOn(name, { CLOB_SETTLE_SWEEP_INTERVAL_MS: '500', OUTBOUND_RESUME_INTERVAL_MS: '1000' });
  }, 60_000);
  afterAll(async () => {
    h?.ledger.faults.reset();
    await h?.close();
  });

  it('pause: the retrying fill goes back to matched at once (and its owners hear it), and settles exactly once after the resume', async () => {
    const { market, taker, fillId } = await fillInRetry();
    const before = await scrape();
    const user = await WsClient.open(wsUrl(h.daemon.url!, 'user'));
    const tk = taker.publicKey.toBase58();
    expect(await user.command({ type: 'subscribe', pubkey: tk })).toMatchObject({ event: 'subscribed' });
    const pause = await admin(h, `/v2/admin/clob/markets/${market.id}/pause`);
    expect(pause.statusCode, pause.body).toBe(200);
    const paused = await fillIn(fillId, ['matched', 'settled'], 5_000); // well inside the job's 15 s wait
    expect(paused.status).toBe('matched');
    // The taker is told: `fill:matched` again, carrying the fill as REST shows it.
    const heard = await user.waitFor(
      (f) => typeof f === 'object' && f.event === 'fill:matched' && f.owner === tk && f.fill?.id === fillId,
      10_000,
    );
    expect(heard.fill).toMatchObject({ id: fillId, status: 'matched' });
    user.close();
    const batch = await h.daemon.db.db
      .selectFrom('clob_batch_fills as bf')
      .innerJoin('clob_settlement_batches as b', 'b.id', 'bf.batch_id')
      .innerJoin('outbound_transactions as o', 'o.id', 'b.outbound_id')
      .select(['b.status as batch', 'o.status as outbound', 'o.last_error'])
      .where('bf.fill_id', '=', fillId)
      .executeTakeFirstOrThrow();
    // Its job's next attempt ends at once; the batch carried the fill no further.
    expect(batch).toMatchObject({ batch: 'settled', outbound: 'failed', last_error: expect.stringMatching(/market paused/) });
    const halted = await waitFor('the halt counted', async () => {
      const now = await scrape();
      return grew(before, now, 'pmx_clob_settle_transactions_total', { outcome: 'halted' }) > 0 ? now : undefined;
    });
    expect(grew(before, halted, 'pmx_clob_settle_transactions_total', { outcome: 'halted' })).toBe(1);
    expect(grew(before, halted, 'pmx_clob_fill_transitions_total', moved('retrying', 'matched'))).toBe(1);
    expect(sample(halted, 'pmx_clob_fill_transitions_total', moved('settling', 'retrying'))).toBeGreaterThanOrEqual(1);

    const resume = await admin(h, `/v2/admin/clob/markets/${market.id}/resume`);
    expect(resume.statusCode, resume.body).toBe(200);
    const settled = await fillIn(fillId, ['settled', 'failed'], 20_000);
    expect(settled.status).toBe('settled');
    const receipt = await h.daemon.chain.client.getAccount(findFillReceiptPda(fillId, h.daemon.chain.programs.exchange!)[0].toBase58());
    expect(receipt).not.toBeNull();
  }, 90_000);

  it('resolve: the retrying fill fails with MarketResolved at once and its holds are released', async () => {
    const { market, taker, fillId } = await fillInRetry();
    const tk = taker.publicKey.toBase58();
    const held = (await get(h, `/v2/clob/account/balances?pubkey=${tk}`)).json();
    // The first fill (1 YES at 6000) paid 600_000 + fee 1_500: 19_398_500 in the wallet. The second,
    // 5 YES at 6000, holds 3_000_000 + the taker fee ceil(3_000_000 × 25 / 10000) = 7_500.
    expect(held.smartWalletBalance).toBe('19398500');
    expect(held.withdrawable).toBe(String(19_398_500n - 3_007_500n));
    const before = await scrape();
    const resolve = await admin(h, `/v2/admin/clob/markets/${market.id}/resolve`, { outcome: 'yes' });
    expect(resolve.statusCode, resolve.body).toBe(200);
    const failed = await fillIn(fillId, ['failed', 'settled'], 5_000);
    expect(failed).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^MarketResolved/) });
    const after = await waitFor('the failure counted', async () => {
      const now = await scrape();
      return grew(before, now, 'pmx_clob_fill_transitions_total', moved('matched', 'failed')) > 0 ? now : undefined;
    });
    expect(grew(before, after, 'pmx_clob_fill_transitions_total', moved('matched', 'failed'))).toBe(1);
    expect(grew(before, after, 'pmx_clob_fill_transitions_total', moved('retrying', 'matched'))).toBe(1);
    expect(grew(before, after, 'pmx_clob_settle_transactions_total', { outcome: 'halted' })).toBe(1);
    const released = await waitFor('taker hold released', async () => {
      const b = (await get(h, `/v2/clob/account/balances?pubkey=${tk}`)).json();
      return b.withdrawable === '19398500' ? b : undefined;
    });
    expect(released.smartWalletBalance).toBe('19398500');
    const receipt = await h.daemon.chain.client.getAccount(findFillReceiptPda(fillId, h.daemon.chain.programs.exchange!)[0].toBase58());
    expect(receipt).toBeNull();
  }, 90_000);
});
