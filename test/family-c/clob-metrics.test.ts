/**
 * The orderbook in /metrics, on a real stack (both databases): orders by result, the matcher's
 * batches and its market lease, the book depth of the market it owns, fills by status and their
 * transitions, the match → settled latency and the settlement transactions — a settled fill and
 * one the chain refuses (its maker emptied its smart wallet behind the API) — and the readiness
 * checks. Every wait is for the metric to show what happened.
 */
import { Transaction, type Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWithdrawInstruction } from '@pmx/programs';
import { PG_AVAILABLE, postgresSchema } from '../helpers/databases.js';
import { parseSamples, sample, type Sample } from '../helpers/metrics-text.js';
import {
  clobWrite,
  createClobMarket,
  depositedTrader,
  get,
  openClobHarness,
  place,
  post,
  signedOrder,
  USDC,
  waitFor,
  type CHarness,
} from './family-c.harness.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each([
  { dialect: 'sqlite', available: true },
  { dialect: 'postgres', available: PG_AVAILABLE },
])('orderbook metrics on $dialect', ({ dialect, available }) => {
  let h: CHarness;
  let schema: Awaited<ReturnType<typeof postgresSchema>> | undefined;
  beforeAll(async () => {
    if (!available) return;
    schema = dialect === 'postgres' ? await postgresSchema() : undefined;
    h = await openClobHarness({ CLOB_SETTLE_SWEEP_INTERVAL_MS: '500', ...(schema ? { DATABASE_URL: schema.url } : {}) });
  });
  afterAll(async () => {
    await h?.close();
    await schema?.drop();
  });

  const scrape = async (): Promise<Sample[]> => {
    const res = await get(h, '/metrics');
    expect(res.statusCode).toBe(200);
    return parseSamples(res.body);
  };
  /** Scrapes until `ready` holds (what the test just did shows in the metrics). */
  const scrapeUntil = (what: string, ready: (s: Sample[]) => boolean) =>
    waitFor(
      what,
      async () => {
        const samples = await scrape();
        return ready(samples) ? samples : undefined;
      },
      20_000,
    );
  const n = (s: Sample[], name: string, labels: Record<string, string> = {}) => sample(s, name, labels) ?? 0;

  it.skipIf(!available)('counts orders, batches, the lease, book depth, fills and a settlement', async () => {
    const market = await createClobMarket(h);
    const m = market.marketPubkey;
    const before = await scrapeUntil('the market owned', (s) => n(s, 'pmx_clob_markets_owned') === 1);
    expect(n(before, 'pmx_clob_markets', { status: 'active' })).toBe(1);
    expect(n(before, 'pmx_clob_lease_takeovers_total', { from: 'free' })).toBe(1);
    expect(n(before, 'pmx_ready_check', { check: 'database' })).toBe(1);
    expect(n(before, 'pmx_ready_check', { check: 'redis' })).toBe(1);

    const maker = await depositedTrader(h, 100n * USDC);
    const taker = await depositedTrader(h, 100n * USDC);
    const mk = maker.publicKey.toBase58();
    await clobWrite(h, '/v2/clob/account/split', { pubkey: mk, marketId: market.id, amount: (20n * USDC).toString() }, maker);
    await waitFor('split indexed', async () =>
      (await get(h, `/v2/clob/account/balances?pubkey=${mk}`)).json().markets[0]?.yesTokens === '20000000' ? true : undefined,
    );
    await place(h, maker, { market: m, side: 'sell', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
    await place(h, maker, { market: m, side: 'sell', outcome: 'yes', priceBps: 6500, quantity: 5n * USDC });
    await place(h, taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 3n * USDC });
    const book = await scrape();
    const depth = (outcome: string, side: string) => ({
      best: sample(book, 'pmx_clob_book_best_price_bps', { market: market.id, outcome, side }),
      size: sample(book, 'pmx_clob_book_depth', { market: market.id, outcome, side }),
    });
    expect(depth('yes', 'ask')).toEqual({ best: 6000, size: 15_000_000 });
    expect(depth('yes', 'bid')).toEqual({ best: 4000, size: 3_000_000 });
    expect(depth('no', 'bid')).toEqual({ best: undefined, size: undefined }); // an empty side has no series

    // Refusals, each by its class: a forged signature, more than the wallet holds.
    const forged = signedOrder(taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: USDC });
    (forged as Json).signature = (
      signedOrder(maker, { market: m, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: USDC }) as Json
    ).signature;
    expect((await post(h, '/v2/clob/orders', forged)).statusCode).toBe(403);
    const tooBig = signedOrder(taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1_000n * USDC });
    expect((await post(h, '/v2/clob/orders', tooBig)).statusCode).toBe(400);

    const taken = await place(h, taker, { market: m, side: 'buy', outcome: 'yes', priceBps: 6000, quantity: 10n * USDC });
    expect(taken.fills).toHaveLength(1);
    // The keeper counts a settlement after its commit, so the gauge (read from the database) can
    // show the fill settled before the counters do: wait for both.
    const after = await scrapeUntil(
      'the fill settled and counted',
      (s) =>
        n(s, 'pmx_clob_fills', { status: 'settled' }) === 1 &&
        n(s, 'pmx_clob_fill_transitions_total', { from: 'settling', to: 'settled' }) >= 1 &&
        n(s, 'pmx_clob_fill_settle_latency_seconds_count') >= 1 &&
        n(s, 'pmx_clob_settle_transactions_total', { outcome: 'confirmed' }) >= 1,
    );
    expect(n(after, 'pmx_clob_orders_total', { result: 'placed' })).toBe(4);
    expect(n(after, 'pmx_clob_orders_total', { result: 'rejected', reason: 'signature' })).toBe(1);
    expect(n(after, 'pmx_clob_orders_total', { result: 'rejected', reason: 'funds' })).toBe(1);
    expect(n(after, 'pmx_clob_fill_transitions_total', { from: 'none', to: 'matched' })).toBe(1);
    expect(n(after, 'pmx_clob_fill_transitions_total', { from: 'matched', to: 'settling' })).toBe(1);
    expect(n(after, 'pmx_clob_fill_transitions_total', { from: 'settling', to: 'settled' })).toBe(1);
    expect(n(after, 'pmx_clob_fill_settle_latency_seconds_count')).toBe(1);
    expect(n(after, 'pmx_clob_fill_settle_latency_seconds_bucket', { le: '+Inf' })).toBe(1);
    expect(n(after, 'pmx_clob_settle_transactions_total', { outcome: 'confirmed' })).toBe(1);
    expect(n(after, 'pmx_clob_oldest_unsettled_fill_seconds')).toBe(0);
    // Four placements and two matcher refusals at least (batches may group them); every batch is timed.
    const batches = n(after, 'pmx_clob_matcher_batch_size_count');
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(n(after, 'pmx_clob_matcher_batch_size_sum')).toBeGreaterThanOrEqual(5);
    expect(n(after, 'pmx_clob_matcher_batch_duration_seconds_count')).toBe(batches);
    // The rest of the 6500 ask is what the book shows now.
    expect(sample(after, 'pmx_clob_book_best_price_bps', { market: market.id, outcome: 'yes', side: 'ask' })).toBe(6500);
  });

  it.skipIf(!available)('counts a settlement the chain refuses and the fill it fails', async () => {
    const market = await createClobMarket(h);
    const maker = await depositedTrader(h, 50n * USDC);
    const taker = await depositedTrader(h, 50n * USDC);
    const tk = taker.publicKey.toBase58();
    await clobWrite(h, '/v2/clob/account/split', { pubkey: tk, marketId: market.id, amount: (10n * USDC).toString() }, taker);
    await waitFor('split indexed', async () =>
      (await get(h, `/v2/clob/account/balances?pubkey=${tk}`)).json().markets[0]?.yesTokens === '10000000' ? true : undefined,
    );
    await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 10n * USDC });
    const start = await scrape();
    // The maker empties its smart wallet behind the API; the taker sells before the index reads it.
    const index = h.daemon.queues.get('index');
    await index.pause();
    try {
      await withdrawAll(h, maker);
      await place(h, taker, { market: market.marketPubkey, side: 'sell', outcome: 'yes', priceBps: 5000, quantity: 4n * USDC });
    } finally {
      await index.resume();
    }
    const failed = (s: Sample[]) => n(s, 'pmx_clob_fills', { status: 'failed_insufficient_balance' });
    const refusedTxs = (s: Sample[]) => n(s, 'pmx_clob_settle_transactions_total', { outcome: 'refused' });
    // The fill's status is read from the database at the scrape; the keeper counts the refusal
    // after its commit, so a scrape can fall between the two: wait for both.
    const after = await scrapeUntil('the fill failed and its refusal counted', (s) => failed(s) === 1 && refusedTxs(s) > refusedTxs(start));
    const grew = (name: string, labels: Record<string, string>) => n(after, name, labels) - n(start, name, labels);
    expect(grew('pmx_clob_settle_transactions_total', { outcome: 'refused' })).toBe(1);
    expect(grew('pmx_clob_fill_transitions_total', { from: 'settling', to: 'failed_insufficient_balance' })).toBe(1);
    expect(grew('pmx_clob_fill_transitions_total', { from: 'none', to: 'matched' })).toBe(1);
    expect(grew('pmx_clob_fill_settle_latency_seconds_count', {})).toBe(0); // a failed fill never settled
  });
});

/** Empties the owner's smart wallet with its own withdraw transaction, not through the API. */
async function withdrawAll(h: CHarness, owner: Keypair): Promise<void> {
  const { blockhash } = await h.daemon.chain.client.getLatestBlockhash();
  const tx = new Transaction({ feePayer: owner.publicKey, recentBlockhash: blockhash });
  const programId = h.daemon.chain.programs.exchange;
  tx.add(getWithdrawInstruction({ owner: owner.publicKey, usdcMint: h.usdcMint, amount: 50n * USDC, programId }));
  tx.sign(owner);
  expect((await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true })).err).toBeNull();
}
